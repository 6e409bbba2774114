// Package pattern implements bash's pattern matching notation (globs) as
// bash 5.2 applies it in a UTF-8 locale, without regular expressions.
//
// # Pattern text
//
// A pattern is given as text in which a backslash makes the next character
// literal. The caller marks text that came from quoted parts of a word by
// passing it through [QuoteMeta] before concatenating it with the unquoted
// parts: "$x"* becomes QuoteMeta(x)+"*". This is the form bash itself uses
// internally, and it makes the pattern text a usable cache key.
//
// Supported: * ? [...] with ranges, negation by ! or ^, classes such as
// [[:alpha:]], equivalence classes [[=c=]] and collating symbols [[.c.]]
// of single characters, backslash escapes, and with [ExtGlob] the operators
// ?(a|b) *(a|b) +(a|b) @(a|b) !(a|b), nested. A '[' without its closing ']'
// and an extglob operator without its closing ')' are literal text, as in
// bash. ? matches one character: a UTF-8 sequence or one invalid byte.
//
// # Modes
//
// [Compile] returns a *Pattern from a bounded, concurrency-safe cache keyed by
// the text and the flags, so a loop compiles each pattern once. Its methods
// cover what the shell needs:
//
//   - [Pattern.Match]: the whole string, for [[ == ]], case and one path
//     element of a glob (with [Period], a leading '.' must be matched by a
//     literal '.': dotglob off).
//   - [Pattern.Prefix], [Pattern.Suffix]: shortest or longest match anchored
//     at the start or end, for ${x#p} ${x##p} ${x%p} ${x%%p}, and (longest)
//     for ${x/#p/r} and ${x/%p/r}.
//   - [Pattern.Spans]: the spans ${x/p/r} and ${x//p/r} replace, leftmost
//     longest, with bash's handling of empty matches.
//
// Every method takes a context: work that can grow beyond linear (extglob on
// long strings) checks it periodically and stops with its error. Plain
// literal patterns, prefix*, *suffix and *infix* run on string searches; other
// patterns without extglob run on a bit-parallel NFA (linear in the string);
// extglob patterns run on sets of positions, polynomial in the worst case,
// never exponential (a repetition of one-character alternatives, +(0) or
// *([[:space:]]), is one linear pass).
//
// [Glob] expands a pattern over a directory tree reached through an injected
// [FS]: several path elements, globstar **, dotglob, nocaseglob and
// GLOBIGNORE filtering, sorted bytewise as bash sorts in the C.UTF-8 locale.
// What to do when nothing matches (nullglob, failglob, keep the word) is the
// caller's decision.
package pattern
