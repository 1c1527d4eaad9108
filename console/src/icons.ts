// The icons the console shows (Bootstrap Icons, as Shoelace ships them): the build copies only
// these into dist/console/assets/icons/, where <sl-icon name="…"> finds them.
export const ICONS = [
  'graph-up',
  'download',
  'people',
  'search',
  'trophy',
  'broadcast',
  'box-arrow-right',
  'arrow-clockwise',
  'key',
  'exclamation-triangle',
  'check2-circle',
  'x-circle',
  'lightning',
  'trash',
  'plus-lg',
  'arrow-counterclockwise',
  'plus-slash-minus',
  'clock-history',
  'archive',
  'upload',
] as const;
