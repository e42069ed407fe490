import {
  createTheme,
  darken,
  DEFAULT_THEME,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

/*
 * The app's theme, made to pass WCAG 2.2 AA contrast (issue 18 item 7). Mantine's defaults put
 * white text on shade 6 (blue 3.6:1, green 2.4:1), coloured text in shade 6 and dimmed text in
 * gray 6 (3.3:1); AA asks 4.5:1 for text.
 */

/** WCAG's minimum contrast for text (1.4.3); a little above it, so rounding never lands below. */
export const MIN_CONTRAST = 4.6;

/** The contrast ratio of two colours (WCAG 2 relative luminance). */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color` at `opacity` over white, as the light variants' backgrounds are drawn. */
function overWhite(color: string, opacity: number): string {
  const rgb = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
  const channel = (v: number) =>
    Math.round(v * opacity + 255 * (1 - opacity))
      .toString(16)
      .padStart(2, '0');
  return `#${rgb.map(channel).join('')}`;
}

/** The shade that fills buttons, badges and the light variants' tint. */
const FILLED_SHADE = 8;

/**
 * Secondary text ("dimmed"): 5.8:1 on white, 4.9:1 on gray 2, so it stays readable on striped and
 * highlighted table rows too.
 */
export const DIMMED = '#5f6670';

/**
 * The colour a palette's text takes (coloured text, links, the light, subtle and outline variants):
 * the lightest of shades 7 to 9 that reads at 4.5:1 on white, on a striped row (gray 1) and on the
 * palette's own light tint; for the bright palettes (yellow, lime, orange, green) shade 9 darkened
 * until it does.
 */
export function readableShade(palette: MantineColorsTuple): string {
  const backgrounds = ['#ffffff', DEFAULT_THEME.colors.gray[1], overWhite(palette[FILLED_SHADE], 0.12)];
  const reads = (color: string) => backgrounds.every((bg) => contrast(color, bg) >= MIN_CONTRAST);
  const shade = [palette[7], palette[8], palette[9]].find(reads);
  if (shade) return shade;
  let color = palette[9];
  for (let step = 1; !reads(color) && step <= 20; step += 1) color = darken(palette[9], step * 0.05);
  return color;
}

/** The calendars' arrows, named per level (Mantine dates' ariaLabels). */
const CALENDAR_ARROWS = ['previousMonth', 'nextMonth', 'previousYear', 'nextYear', 'previousDecade', 'nextDecade'];

/**
 * The theme. `t` names the icon-only buttons Mantine renders without a name (axe: button-name,
 * critical) in the user's language (ui.json controls.*): the close button of modals and
 * notifications, the clear button of fields, the calendars' arrows; so every caller has them.
 */
export const appTheme = (t: (key: string) => string) =>
  createTheme({
    // Filled buttons and badges in shade 8; autoContrast with luminance 0.179 (where black and white
    // text read equally) writes black on the bright fills (yellow, green, orange) and white on the
    // dark ones, each at 4.5:1 or more.
    primaryShade: { light: FILLED_SHADE, dark: FILLED_SHADE },
    autoContrast: true,
    luminanceThreshold: 0.179,
    components: {
      CloseButton: { defaultProps: { 'aria-label': t('controls.close') } },
      InputClearButton: { defaultProps: { 'aria-label': t('controls.clear') } },
      // An open menu focuses its first item (the WAI-ARIA menu button pattern) rather than a focusable
      // placeholder div, which a menu may not own (axe aria-required-children, critical).
      Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
      Calendar: {
        defaultProps: { ariaLabels: Object.fromEntries(CALENDAR_ARROWS.map((k) => [k, t(`controls.${k}`)])) },
      },
      // An open list that scrolls is a scrollable region, which axe asks to be reachable by keyboard
      // (scrollable-region-focusable, serious); the arrows already move through the options from the
      // input (aria-activedescendant), so the stop is for the rule and for scrolling with the keys. A
      // focusable child of a listbox needs a role a listbox may own (aria-required-children): group.
      ...Object.fromEntries(
        ['Select', 'MultiSelect', 'Autocomplete', 'TagsInput'].map((name) => [
          name,
          { defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0, role: 'group' } } } },
        ]),
      ),
    },
  });

/** The light scheme's text colours: each palette's readable shade; dimmed, error and placeholder text. */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-placeholder': DIMMED,
    '--mantine-color-error': readableShade(resolved.colors.red),
    '--mantine-color-anchor': readableShade(resolved.colors[resolved.primaryColor]!),
  };
  for (const [name, palette] of Object.entries(resolved.colors)) {
    if (name === 'dark' || name === 'gray') continue;
    const text = readableShade(palette);
    light[`--mantine-color-${name}-text`] = text;
    light[`--mantine-color-${name}-light-color`] = text;
    light[`--mantine-color-${name}-outline`] = text;
  }
  return { variables: {}, light, dark: {} };
};
