export * from './scheme';
export * from './signature';
export * from './template';
export * from './timestamp';
export * from './verify';
