/// `count` and `noun`, with an `s` unless the count is one: `1 error`, `2 errors`.
func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
