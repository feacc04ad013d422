/** The names of the files the reporters write in the report folder: a leaf, so that no reporter imports the registry that loads it. */

/** The file each file reporter writes in the report folder. */
export const REPORT_FILES = {
  json: 'report.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'summary.md',
  har: 'report.har',
} as const;

/** What the json reporter writes, in place of report.json, for a run that could not start: the last good report.json stays. */
export const NOT_STARTED_FILE = 'not-started.json';
