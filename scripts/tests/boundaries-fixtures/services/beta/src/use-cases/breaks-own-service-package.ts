// Refused: a service imports a service package, even its own (src uses relative paths inside itself).
import { sweep } from '@hc/beta/testing';

export const borrowed = sweep;
