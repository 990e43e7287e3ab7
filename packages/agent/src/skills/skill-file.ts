/**
 * One SKILL.md: YAML front matter (`name`, `description`) between `---` lines, then the
 * instructions. Errors and warnings name the file and the line.
 */
import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';

/** A skill's name: what `/name` and `skill_view` use; also its folder's name. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** The front matter keys Hermes reads; any other key is warned about (and ignored). */
export const SKILL_KEYS: readonly string[] = ['name', 'description'];

export interface ParsedSkill {
  name: string;
  description: string;
  /** the instructions: everything after the front matter, trimmed */
  body: string;
  /** `file:line: …` for unknown keys */
  warnings: string[];
}

export type SkillParse = { ok: true; skill: ParsedSkill } | { ok: false; error: string };

const fail = (file: string, line: number, message: string): SkillParse => ({
  ok: false,
  error: `${file}:${line}: ${message}`,
});

/** Splits the front matter from the body; null when the file does not begin with a `---` line. */
function splitFrontMatter(text: string): { yaml: string; body: string; closed: boolean } | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return null;
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end === -1) return { yaml: lines.slice(1).join('\n'), body: '', closed: false };
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n'), closed: true };
}

/**
 * Parses a SKILL.md's text. `file` names it in messages; `folder`, when given, is the name the
 * skill must have (a user skill's folder under HERMES_HOME/skills/).
 */
export function parseSkillFile(text: string, file: string, folder?: string): SkillParse {
  const parts = splitFrontMatter(text);
  if (parts === null) {
    return fail(
      file,
      1,
      "no front matter: the file must begin with a '---' line, then the 'name' and 'description' keys",
    );
  }
  if (!parts.closed) return fail(file, 1, "the front matter is not closed: add a '---' line after it");
  const lineCounter = new LineCounter();
  const doc = parseDocument(parts.yaml, { lineCounter, prettyErrors: false });
  // the front matter starts on the file's line 2
  const lineOf = (node: unknown) => {
    const range = isNode(node) ? node.range : undefined;
    return range ? lineCounter.linePos(range[0]).line + 1 : 2;
  };
  const yamlError = doc.errors[0];
  if (yamlError) {
    const line = lineCounter.linePos(yamlError.pos[0]).line + 1;
    return fail(file, line, `the front matter is not valid YAML: ${yamlError.message.split('\n')[0]}`);
  }
  if (!isMap(doc.contents)) {
    return fail(file, 2, "the front matter must be a mapping with the 'name' and 'description' keys");
  }
  const values = new Map<string, { value: unknown; line: number }>();
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    values.set(key, { value: isScalar(pair.value) ? pair.value.value : pair.value, line: lineOf(pair.key) });
  }
  const name = values.get('name');
  if (name === undefined)
    return fail(file, 2, "the front matter has no 'name' key (add a line such as 'name: standup')");
  if (typeof name.value !== 'string' || !SKILL_NAME.test(name.value)) {
    return fail(
      file,
      name.line,
      `bad name ${JSON.stringify(name.value)}: use lowercase letters, digits, - and _ (up to 64, starting with a letter or digit)`,
    );
  }
  if (folder !== undefined && name.value !== folder) {
    return fail(file, name.line, `name "${name.value}" differs from its folder "${folder}": make them the same`);
  }
  const description = values.get('description');
  if (description === undefined)
    return fail(
      file,
      2,
      "the front matter has no 'description' key (add a line such as 'description: What the skill does')",
    );
  if (typeof description.value !== 'string' || description.value.trim() === '') {
    return fail(file, description.line, 'description must be a non-empty string');
  }
  const body = parts.body.trim();
  if (body === '') return fail(file, 1, 'no instructions: write them after the front matter');
  const warnings = [...values]
    .filter(([key]) => !SKILL_KEYS.includes(key))
    .map(([key, v]) => `${file}:${v.line}: unknown key "${key}" ignored (known: ${SKILL_KEYS.join(', ')})`);
  return {
    ok: true,
    skill: { name: name.value, description: description.value.trim().replace(/\s+/g, ' '), body, warnings },
  };
}
