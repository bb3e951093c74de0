// The links of a packed README: inline (`[text](target)`), reference definitions
// (`[name]: target`) and HTML (`href="target"`); code spans and blocks are not links.

/** Every link target of a markdown text, in order. */
export function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const patterns = [
    /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm,
    /href="([^"]+)"/g,
  ];
  return patterns.flatMap((pattern) => [...prose.matchAll(pattern)].map((match) => match[1] ?? ''));
}

/** A link with a scheme (`https:`, `mailto:`): it does not depend on where the file is. */
export function isAbsolute(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/**
 * The path inside the repository an absolute link to `repository` (its web address) names:
 * `<repository>/blob/main/docs/guide.md#x` is `docs/guide.md`; undefined for any other link.
 */
export function repositoryPath(target: string, repository: string): string | undefined {
  const prefix = `${repository}/`;
  if (!target.startsWith(prefix)) return undefined;
  const path = /^(?:blob|tree)\/main\/([^#?]*)/.exec(target.slice(prefix.length))?.[1];
  return path === undefined ? undefined : decodeURIComponent(path);
}

/** The web address of a `repository` field: `git+https://host/o/r.git` is `https://host/o/r`. */
export function repositoryAddress(repository: { url: string } | string): string {
  const url = typeof repository === 'string' ? repository : repository.url;
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}
