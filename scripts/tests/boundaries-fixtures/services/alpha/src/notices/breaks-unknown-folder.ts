// Refused: a folder that is none of the six roles (api/, use-cases/, domain/, store/, adapters/, jobs/).
export const notice = 'unclassified';
