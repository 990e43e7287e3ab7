/**
 * HTML character references: numeric ones in full (with the spec's Windows-1252 remapping of
 * 0x80-0x9F), named ones from a table of the references real pages use. An unknown name stays
 * as written. In attribute values a legacy reference without `;` followed by a letter, digit or
 * `=` is left alone, so `?a=1&copy=2` in a link survives.
 */

// biome-ignore format: a table reads better packed
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
  zwnj: '\u200c', zwj: '\u200d', lrm: '\u200e', rlm: '\u200f', shy: '\u00ad',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»',
  lsaquo: '‹', rsaquo: '›', prime: '′', Prime: '″', bull: '•', middot: '·', sdot: '⋅', dagger: '†', Dagger: '‡',
  permil: '‰', deg: '°', plusmn: '±', times: '×', divide: '÷', frac12: '½', frac14: '¼', frac34: '¾',
  sup1: '¹', sup2: '²', sup3: '³', micro: 'µ', para: '¶', sect: '§', cent: '¢', pound: '£', yen: '¥',
  euro: '€', curren: '¤', iexcl: '¡', iquest: '¿', brvbar: '¦', uml: '¨', macr: '¯', acute: '´', cedil: '¸',
  ordf: 'ª', ordm: 'º', not: '¬', larr: '←', uarr: '↑', rarr: '→', darr: '↓', harr: '↔', lArr: '⇐', rArr: '⇒',
  hArr: '⇔', le: '≤', ge: '≥', ne: '≠', asymp: '≈', equiv: '≡', infin: '∞', sum: '∑', prod: '∏', radic: '√',
  part: '∂', int: '∫', forall: '∀', exist: '∃', empty: '∅', nabla: '∇', isin: '∈', notin: '∉', ni: '∋',
  and: '∧', or: '∨', cap: '∩', cup: '∪', sub: '⊂', sup: '⊃', sube: '⊆', supe: '⊇', there4: '∴', sim: '∼',
  prop: '∝', ang: '∠', lowast: '∗', oplus: '⊕', otimes: '⊗', perp: '⊥', loz: '◊', spades: '♠', clubs: '♣',
  hearts: '♥', diams: '♦', check: '✓', star: '☆', starf: '★', circ: 'ˆ', tilde: '˜', oline: '‾', frasl: '⁄',
  Alpha: 'Α', Beta: 'Β', Gamma: 'Γ', Delta: 'Δ', Epsilon: 'Ε', Zeta: 'Ζ', Eta: 'Η', Theta: 'Θ', Iota: 'Ι',
  Kappa: 'Κ', Lambda: 'Λ', Mu: 'Μ', Nu: 'Ν', Xi: 'Ξ', Omicron: 'Ο', Pi: 'Π', Rho: 'Ρ', Sigma: 'Σ', Tau: 'Τ',
  Upsilon: 'Υ', Phi: 'Φ', Chi: 'Χ', Psi: 'Ψ', Omega: 'Ω', alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ',
  epsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ',
  omicron: 'ο', pi: 'π', rho: 'ρ', sigmaf: 'ς', sigma: 'σ', tau: 'τ', upsilon: 'υ', phi: 'φ', chi: 'χ', psi: 'ψ',
  omega: 'ω', thetasym: 'ϑ', piv: 'ϖ',
  Agrave: 'À', Aacute: 'Á', Acirc: 'Â', Atilde: 'Ã', Auml: 'Ä', Aring: 'Å', AElig: 'Æ', Ccedil: 'Ç', Egrave: 'È',
  Eacute: 'É', Ecirc: 'Ê', Euml: 'Ë', Igrave: 'Ì', Iacute: 'Í', Icirc: 'Î', Iuml: 'Ï', ETH: 'Ð', Ntilde: 'Ñ',
  Ograve: 'Ò', Oacute: 'Ó', Ocirc: 'Ô', Otilde: 'Õ', Ouml: 'Ö', Oslash: 'Ø', Ugrave: 'Ù', Uacute: 'Ú', Ucirc: 'Û',
  Uuml: 'Ü', Yacute: 'Ý', THORN: 'Þ', szlig: 'ß', agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä',
  aring: 'å', aelig: 'æ', ccedil: 'ç', egrave: 'è', eacute: 'é', ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í',
  icirc: 'î', iuml: 'ï', eth: 'ð', ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô', otilde: 'õ', ouml: 'ö',
  oslash: 'ø', ugrave: 'ù', uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', thorn: 'þ', yuml: 'ÿ', Yuml: 'Ÿ',
  OElig: 'Œ', oelig: 'œ', Scaron: 'Š', scaron: 'š', fnof: 'ƒ',
};

/** Names the HTML spec also recognises without the trailing `;` (the common ones). */
// biome-ignore format: a table reads better packed
const LEGACY = [
  'amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg', 'shy', 'deg', 'plusmn', 'times', 'divide', 'middot', 'para',
  'sect', 'cent', 'pound', 'yen', 'laquo', 'raquo', 'iexcl', 'iquest', 'frac12', 'frac14', 'frac34', 'sup1',
  'sup2', 'sup3', 'micro', 'uml', 'acute', 'cedil', 'macr', 'ordf', 'ordm', 'not', 'curren', 'brvbar',
].sort((a, b) => b.length - a.length);

/** Windows-1252 characters for numeric references 0x80-0x9F (the spec's table). */
// biome-ignore format: a table reads better packed
const C1: Record<number, number> = {
  128: 0x20ac, 130: 0x201a, 131: 0x0192, 132: 0x201e, 133: 0x2026, 134: 0x2020, 135: 0x2021, 136: 0x02c6,
  137: 0x2030, 138: 0x0160, 139: 0x2039, 140: 0x0152, 142: 0x017d, 145: 0x2018, 146: 0x2019, 147: 0x201c,
  148: 0x201d, 149: 0x2022, 150: 0x2013, 151: 0x2014, 152: 0x02dc, 153: 0x2122, 154: 0x0161, 155: 0x203a,
  156: 0x0153, 158: 0x017e, 159: 0x0178,
};

function fromCodePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(C1[code] ?? code);
}

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]{1,6});?|#([0-9]{1,7});?|([A-Za-z][A-Za-z0-9]{0,31})(;?))/g;

/** Decodes the character references of a text node (or, with `inAttribute`, an attribute value). */
export function decodeEntities(text: string, inAttribute = false): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (
      match,
      hex: string | undefined,
      dec: string | undefined,
      name: string | undefined,
      semi: string,
      offset: number,
    ) => {
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
      if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
      if (name === undefined) return match;
      if (semi === ';') {
        const value = NAMED[name];
        return value ?? match;
      }
      const legacy = LEGACY.find((l) => name.startsWith(l));
      if (!legacy) return match;
      const rest = name.slice(legacy.length);
      const after = rest[0] ?? text[offset + match.length] ?? '';
      if (inAttribute && /[A-Za-z0-9=]/.test(after)) return match;
      return (NAMED[legacy] ?? '') + rest;
    },
  );
}
