// Refused: a file directly in api/, outside grpc/, http/, consumers/ and listeners/.
export const entry = 'unclassified';
