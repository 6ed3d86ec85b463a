extension OptionSpec {
  /// How a command line stored for a later run (the one a resumed fetch compares with its
  /// checkpoint) keeps an option.
  package enum Recording: Sendable {
    /// As given: it defines what the run does.
    case kept
    /// Left out, with its value: it changes only how the run goes (a wait, a log, a file, a
    /// secret), so a later run may differ in it and still be the same run.
    case omitted
    /// Kept with its value rewritten (a URL without its user info, say).
    case rewritten(@Sendable (String) -> String)
  }
}

extension CommandSpec {
  /// `arguments` as a stored command line keeps them, each option as its declaration's
  /// ``OptionSpec/Recording`` says (`--name VALUE`, `--name=VALUE` and short forms alike).
  package func recordedArguments(_ arguments: [String]) -> [String] {
    var omittedValues: Set<String> = []
    var omittedFlags: Set<String> = []
    var rewritten: [String: @Sendable (String) -> String] = [:]
    for option in options {
      let names = ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
      switch option.recorded {
      case .kept: break
      case .omitted: option.takesValue ? omittedValues.formUnion(names) : omittedFlags.formUnion(names)
      case .rewritten(let rewrite): for name in names { rewritten[name] = rewrite }
      }
    }
    var kept: [String] = []
    var skipNext = false
    var rewriteNext: (@Sendable (String) -> String)? = nil
    for argument in arguments {
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      if skipNext {
        skipNext = false
      } else if let rewrite = rewriteNext {
        rewriteNext = nil
        kept.append(rewrite(argument))
      } else if let rewrite = rewritten[argument] {
        rewriteNext = rewrite
        kept.append(argument)
      } else if let rewrite = rewritten[name], argument.contains("=") {
        kept.append(name + "=" + rewrite(String(argument.dropFirst(name.count + 1))))
      } else if omittedValues.contains(argument) {
        skipNext = true
      } else if !omittedFlags.contains(argument) && !(argument.contains("=") && omittedValues.contains(name)) {
        kept.append(argument)
      }
    }
    return kept
  }
}
