import { plainWords, stem } from '@app/domain';

export { fold, plainWords, stem } from '@app/domain';

/** Words that say nothing about what a client needs. */
const STOPWORDS = new Set(
  'a an and are as at be but by for from has have i in is it its of on or our so that the their them they this to was we were will with you your need needs want wants looking look client clients customer customers tool tools software solution solutions platform company help helps better new best some any all more'.split(
    ' ',
  ),
);

/** Index terms: plain words without stopwords, stemmed. */
export function terms(text: string): string[] {
  return plainWords(text)
    .filter((word) => !STOPWORDS.has(word) && (word.length > 1 || /\d/.test(word)))
    .map(stem);
}
