/**
 * Invisible characters that can make a label display as another one: bidi controls (a right-to-left
 * override shows "exe.tset" as "test.exe"), zero-width spaces and joiners, tag characters (hidden
 * ASCII a model reads), the other format characters and those no font draws (a Hangul filler).
 * Variation selectors are taken apart (see {@link variationSelector}).
 */
const invisibleFormat =
  /(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F])[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/**
 * A variation selector: it chooses how the character before it looks (❤️, an ideograph's variant),
 * one to a character; a run of them draws nothing and can carry hidden bytes a model reads.
 */
const variationSelector = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D\u180F]/u;

/**
 * Whether `selector` after `before` (and before `after`) is kept in a label: U+FE0E or U+FE0F
 * after a character with an emoji form, choosing it as text or emoji (❤︎, ❤️); after `#`, `*` or a
 * digit only in a keycap (1️⃣). Any other selector draws the same as none wherever a font does not
 * know the pair (after a letter, 16 of them hid 4 bits a letter), and the pairs that do change a
 * glyph (an ideograph's variants, Mongolian forms, math symbols) are registries of thousands no
 * worker's label needs: the character without it reads the same.
 */
function selects(selector: number, before: string | undefined, after: number | undefined): boolean {
  if (before === undefined || (selector !== 0xfe0e && selector !== 0xfe0f) || !/\p{Emoji}/u.test(before))
    return false;
  return before > "\u007f" || (selector === 0xfe0f && after === 0x20e3);
}

/**
 * The flags of England, Scotland and Wales: a black flag and tag characters spelling the region
 * (the only tag sequences drawn as emoji); their tags are part of the picture.
 */
const subdivisionFlag =
  /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;

/** A zero-width joiner inside an emoji sequence (👩‍👩‍👧), which draws one picture of several. */
const emojiJoiner =
  /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F])\u200D(?=\p{Extended_Pictographic})/u;

/**
 * A letter or mark of a script other than Latin, Greek or Cyrillic, where joiners are spelling,
 * with the marks on it (an Arabic vowel sign, of no script of its own; not an accent on a Latin letter).
 */
const joiningLetter =
  "(?![\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{Script=Inherited}\\p{Script=Common}])[\\p{L}\\p{M}]\\p{M}*";

/**
 * A zero-width non-joiner between the letters of a script whose letters join (Persian, Hindi, …),
 * where it is spelling, not decoration.
 */
const letterNonJoiner = new RegExp(`(?<=${joiningLetter})\u200C(?=[\\p{L}\\p{M}])`, "u");

/**
 * A zero-width joiner after a letter or a virama of such a script: a conjunct or half form
 * (Sinhala ශ්‍රී, Devanagari क्‍ष), a Malayalam chillu at the end of a word (അവന്‍).
 */
const letterJoiner = new RegExp(`(?<=${joiningLetter})\u200D`, "u");

/** The names of the invisible characters a label is most often refused for. */
const names: Readonly<Record<number, string>> = {
  0x00ad: "soft hyphen",
  0x061c: "Arabic letter mark",
  0x180e: "Mongolian vowel separator",
  0x200b: "zero width space",
  0x200c: "zero width non-joiner",
  0x200d: "zero width joiner",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2060: "word joiner",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
  0x115f: "Hangul choseong filler",
  0x1160: "Hangul jungseong filler",
  0x3164: "Hangul filler",
  0xffa0: "halfwidth Hangul filler",
  0xfeff: "zero width no-break space",
};

/** What `vibe_spawn` says of a label that is no one line of plain text. */
export const plainLabelRule =
  "one line of text not starting with '-' or a space, without tabs or other control characters, e.g. \"rename getUser\"";

/**
 * Why `label` cannot be a worker's label, or undefined when it can. A label may be handed to the
 * worker's command as an argument, and is shown in vibe_list and on the operator's cards: one
 * line that cannot read as a command-line option (no leading '-' or space, no control character
 * — C0, DEL, C1 — and no Unicode line or paragraph separator), and shown as it is: no invisible
 * format character (see {@link invisibleFormat}) but a joiner where it joins.
 */
export function labelProblem(label: string): string | undefined {
  if (label.startsWith("-") || /^\s/.test(label)) return plainLabelRule;
  // A flag's tags are its picture: the flag is checked as the black flag it is drawn on.
  const shown = label.replace(subdivisionFlag, "\u{1F3F4}");
  let index = 0;
  let before: string | undefined;
  for (const char of shown) {
    const code = char.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029)
      return plainLabelRule;
    const hidden = variationSelector.test(char)
      ? !selects(code, before, shown.codePointAt(index + char.length))
      : invisibleFormat.test(char) && !joinsAt(shown, index);
    if (hidden) {
      const hex = code.toString(16).toUpperCase().padStart(4, "0");
      const name =
        names[code] ??
        (code >= 0xe0000 && code <= 0xe007f
          ? "tag character"
          : variationSelector.test(char)
            ? "variation selector, kept in a label only after an emoji"
            : "format character");
      return `has U+${hex} (${name}), an invisible formatting character that can make a label display as another one (reordering or hiding its text): write it in plain visible text, e.g. "rename getUser"`;
    }
    before = char;
    index += char.length;
  }
  return undefined;
}

/** True when the character at `index` is a joiner that joins (see {@link emojiJoiner}, {@link letterNonJoiner}, {@link letterJoiner}). */
function joinsAt(label: string, index: number): boolean {
  return [emojiJoiner, letterNonJoiner, letterJoiner].some((pattern) => {
    const sticky = new RegExp(pattern.source, "uy");
    sticky.lastIndex = index;
    return sticky.test(label);
  });
}
