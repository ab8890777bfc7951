import { colord } from 'colord';

/**
 * The shop's brand on buyer pages and mails (docs/adr/0096): an accent colour and a logo. The accent
 * is the background of the pages' main button, under white text, and the colour of the mails' button
 * and bar: white on the accent must read at WCAG AA for normal text, 4.5:1.
 */
export interface Brand {
  /** #rrggbb, lower case; null: the platform's colour. */
  readonly accentColour: string | null;
  readonly logo: StoredLogo | null;
}

/** The logo as kept: re-encoded bytes, their type and their sha256 (the logo's immutable address). */
export interface StoredLogo {
  readonly sha256: string;
  readonly contentType: LogoType;
}

export type LogoType = 'image/png' | 'image/webp';

export const NO_BRAND: Brand = { accentColour: null, logo: null };

/** WCAG 2 AA for normal text. */
export const MIN_CONTRAST = 4.5;

const WHITE = '#ffffff';

/** #rgb or #rrggbb (any case) as #rrggbb in lower case; null for anything else. */
export function normalizedHex(value: string): string | null {
  const match = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(value.trim());
  if (!match) return null;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join('') : match[1]!;
  return `#${digits.toLowerCase()}`;
}

/** WCAG 2 relative luminance of #rrggbb, unrounded (colord rounds to two places, too coarse at 4.5). */
export function relativeLuminance(hex: string): number {
  const channel = (offset: number): number => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2 contrast ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export function contrastWithWhite(hex: string): number {
  return contrastRatio(hex, WHITE);
}

/** The ratio as people read it: cut (never rounded up) to two decimals, so 4.499 shows as 4.49, not 4.5. */
export function shownRatio(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

/**
 * The nearest darker colour of the same hue that passes against white: lightness lowered one percent
 * at a time (colord's HSL), so the merchant's colour is kept as far as the rule allows.
 */
export function passingShade(hex: string): string {
  let shade = colord(hex);
  for (let step = 0; step < 100 && contrastWithWhite(shade.toHex()) < MIN_CONTRAST; step++) shade = shade.darken(0.01);
  return normalizedHex(shade.toHex()) ?? '#000000';
}

/** A darker shade for the button's hover and shadow (not text: only the accent carries text). */
export function hoverShade(hex: string): string {
  return normalizedHex(colord(hex).darken(0.08).toHex()) ?? hex;
}

/** Why a colour is refused, in words that name the ratio and a colour that passes; null when it passes. */
export function accentRefusal(hex: string): string | null {
  const ratio = contrastWithWhite(hex);
  if (ratio >= MIN_CONTRAST) return null;
  return (
    `White text on ${hex} has a contrast of ${shownRatio(ratio)}:1; buyer pages need at least 4.5:1 (WCAG AA). ` +
    `${passingShade(hex)} is the nearest darker shade that passes.`
  );
}
