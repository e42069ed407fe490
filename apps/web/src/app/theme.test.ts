import { DEFAULT_THEME, luminance } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { appTheme, contrast, cssVariablesResolver, DIMMED, readableShade } from './theme';

const theme = appTheme((key: string) => ({ 'controls.close': 'Close', 'controls.clear': 'Clear' })[key] ?? key);
const resolved = { ...DEFAULT_THEME, ...theme, colors: DEFAULT_THEME.colors } as typeof DEFAULT_THEME;
const WHITE = '#ffffff';
const BLACK = '#000000';
const palettes = Object.entries(DEFAULT_THEME.colors).filter(([name]) => name !== 'dark');

describe('theme contrast (WCAG 1.4.3, 4.5:1)', () => {
  it.each(palettes)('%s: coloured text reads on white and on a striped row', (_, palette) => {
    const text = readableShade(palette);
    expect(contrast(text, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(text, DEFAULT_THEME.colors.gray[1])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(palettes)('%s: a filled button or badge writes black or white text that reads', (_, palette) => {
    const fill = palette[8];
    // autoContrast: black above the luminance threshold, white below (Mantine's isLightColor).
    const text = luminance(fill) > theme.luminanceThreshold! ? BLACK : WHITE;
    expect(contrast(text, fill)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives dimmed, error, link and each palette’s text its readable colour in the light scheme', () => {
    const { light } = cssVariablesResolver(resolved);
    expect(light['--mantine-color-dimmed']).toBe(DIMMED);
    expect(contrast(DIMMED, DEFAULT_THEME.colors.gray[2])).toBeGreaterThanOrEqual(4.5);
    expect(light['--mantine-color-anchor']).toBe(readableShade(DEFAULT_THEME.colors.blue));
    expect(light['--mantine-color-error']).toBe(readableShade(DEFAULT_THEME.colors.red));
    expect(light['--mantine-color-yellow-light-color']).toBe(readableShade(DEFAULT_THEME.colors.yellow));
    expect(light['--mantine-color-green-outline']).toBe(readableShade(DEFAULT_THEME.colors.green));
  });

  it('names the icon-only close and clear buttons and the calendars’ arrows', () => {
    expect(theme.components?.CloseButton?.defaultProps).toEqual({ 'aria-label': 'Close' });
    expect(theme.components?.InputClearButton?.defaultProps).toEqual({ 'aria-label': 'Clear' });
    expect(theme.components?.Calendar?.defaultProps).toMatchObject({
      ariaLabels: { previousMonth: 'controls.previousMonth', nextDecade: 'controls.nextDecade' },
    });
  });

  it('opens a menu on its first item, not on a placeholder the menu may not own', () => {
    expect(theme.components?.Menu?.defaultProps).toEqual({ withInitialFocusPlaceholder: false });
  });

  it('makes the scrolling list of an open select reachable by keyboard', () => {
    expect(theme.components?.Select?.defaultProps).toEqual({
      scrollAreaProps: { viewportProps: { tabIndex: 0, role: 'group' } },
    });
  });
});
