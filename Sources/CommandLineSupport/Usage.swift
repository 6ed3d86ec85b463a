extension CommandSpec {
  /// The help text: summary, usage line, positionals and options with their help.
  package var usage: String {
    var lines = [summary, "", "Usage: \(usageLine)"]
    if !positionals.isEmpty {
      lines += ["", "Arguments:"]
      lines += positionals.map { row($0.name.uppercased(), $0.help) }
    }
    lines += ["", "Options:"]
    lines += options.map { option in
      var label = option.short.map { "-\($0), " } ?? ""
      label += "--\(option.name)"
      switch option.kind {
      case .flag: break
      case .value(let placeholder): label += " \(placeholder)"
      case .repeatable(let placeholder): label += " \(placeholder)  (repeatable)"
      }
      return row(label, option.help)
    }
    if !discussion.isEmpty { lines += ["", discussion] }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `name [options] ARG [ARG...]`
  package var usageLine: String {
    var parts = [name, "[options]"]
    for positional in positionals {
      var text = positional.name.uppercased()
      if positional.variadic { text += "..." }
      parts.append(positional.optional ? "[\(text)]" : text)
    }
    return parts.joined(separator: " ")
  }

  private func row(_ label: String, _ help: String) -> String {
    let padded = label.count < 30 ? label + String(repeating: " ", count: 30 - label.count) : label + "  "
    return "  " + padded + help
  }
}
