export { runService, type ServiceMain } from './run-service.ts';
export {
  numbered,
  startService,
  type Parts,
  type RunningService,
  type ServiceDefinition,
  type StartedParts,
  type StartedService,
  type Stoppable,
} from './service.ts';
