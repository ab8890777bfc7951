// Allowed: domain/ uses pure packages.
import { Decimal } from 'decimal.js';

export const isPositive = (value: string): boolean => new Decimal(value).isPositive();
