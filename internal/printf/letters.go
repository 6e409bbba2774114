package printf

// cLetters are the escape letters of standard C (Letter less GNU's \e).
const cLetters = "abfnrtv"

// LetterOf is the standard C escape letter (\a \b \f \n \r \t \v) that
// stands for c, for tools that print bytes as escapes (sed's l, tr's
// messages); ok is false for any other byte.
func LetterOf(c byte) (letter byte, ok bool) {
	for i := 0; i < len(cLetters); i++ {
		if b, _ := Letter(cLetters[i]); b == c {
			return cLetters[i], true
		}
	}
	return 0, false
}
