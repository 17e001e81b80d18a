/** The rulebook version every rulebook-derived answer names in `_meta.rulebook_version`. */
export const RULEBOOK_VERSION = '1.1.0'
