import { defineStrategy, type Finding, type WebsiteContext } from '@cadence-detect/plugin-sdk';
import { LEXICON } from './lexicon.js';
import { clamp01, MIN_WORDS, round } from './text-tools.js';

const CATEGORY = 'website-signature';

/** A heading every few lines and bullet lists everywhere: the listicle shape of generated answers. */
export const structureDensity = defineStrategy({
  meta: {
    name: 'structure-density',
    category: CATEGORY,
    description: 'Excessive headings and list items for the amount of text.',
    appliesTo: 'website',
    weight: 0.4,
    messages: {
      dense:
        '{{headings}} headings and {{items}} list items in {{words}} words ({{perHundred}} per 100 words; above 2.5 counts)',
    },
  },
  analyze(context: WebsiteContext) {
    const doc = context.document;
    if (doc.words < MIN_WORDS) return { findings: [], score: 0 };
    const items = doc.lists.reduce((sum, l) => sum + l.items.length, 0);
    const perHundred = ((doc.headings.length + items) * 100) / doc.words;
    const boldLead = doc.lists.flatMap((l) => l.items).filter((item) => /^[\p{Lu}][^:]{2,40}:\s/u.test(item)).length;
    const score = clamp01((perHundred - 2.5) / 4 + (items > 0 ? (boldLead / items) * 0.3 : 0));
    const findings: Finding<'dense'>[] =
      score >= 0.3
        ? [
            {
              score,
              messageId: 'dense',
              data: { headings: doc.headings.length, items, words: doc.words, perHundred: round(perHundred) },
              element: doc.lists[0]?.path ?? doc.headings[0]?.path ?? 'page',
            },
          ]
        : [];
    return { findings, score: round(score), metrics: { per_100_words: round(perHundred) } };
  },
});

/** Missing alt text, skipped heading levels, "click here" links: weak, but generators leave them. */
export const pageStructure = defineStrategy({
  meta: {
    name: 'page-structure',
    category: CATEGORY,
    description: 'Page-structure hints: missing alt text, heading level jumps, generic link text.',
    appliesTo: 'website',
    weight: 0.2,
    messages: {
      missingAlt: 'image without alt text ({{src}})',
      headingJump: 'heading jumps from h{{from}} to h{{to}}',
      genericLink: 'generic link text "{{text}}"',
    },
  },
  analyze(context: WebsiteContext) {
    const doc = context.document;
    const findings: Finding<'missingAlt' | 'headingJump' | 'genericLink'>[] = [];
    const missingAlt = doc.images.filter((i) => i.alt === null);
    for (const image of missingAlt.slice(0, 3))
      findings.push({
        score: 0.3,
        messageId: 'missingAlt',
        data: { src: image.src.slice(0, 80) },
        element: image.path,
      });
    let jumps = 0;
    for (let i = 1; i < doc.headings.length; i++) {
      const previous = doc.headings[i - 1];
      const heading = doc.headings[i];
      if (!previous || !heading) continue;
      if (heading.level > previous.level + 1) {
        jumps++;
        if (jumps <= 3)
          findings.push({
            score: 0.3,
            messageId: 'headingJump',
            data: { from: previous.level, to: heading.level },
            element: `${heading.path}: "${heading.text.slice(0, 80)}"`,
          });
      }
    }
    const generic = doc.links.filter((l) =>
      LEXICON.genericLinks.has(
        l.text
          .toLowerCase()
          .replace(/[.!…]+$/, '')
          .trim(),
      ),
    );
    for (const link of generic.slice(0, 3))
      findings.push({ score: 0.3, messageId: 'genericLink', data: { text: link.text }, element: link.path });
    const issues = missingAlt.length + jumps + generic.length;
    const score = doc.words < MIN_WORDS ? 0 : clamp01(issues * 0.1);
    return { findings: score > 0 ? findings : [], score: round(score), metrics: { issues } };
  },
});
