// Refused: domain/ talks to NATS.
import { connect } from '@nats-io/transport-node';

export const bus = connect;
