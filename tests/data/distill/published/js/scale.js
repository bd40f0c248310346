export const scale = (value) => value * 2;
