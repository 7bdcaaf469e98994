export * from './signature';
export * from './timestamp';
export * from './verify';
