import CommandLineSupport
import DateFormats
import Foundation
import NetworkClient
import XAPI

// The conversions of the `tweets` options' arguments, each with the error a bad one gets.

extension ArgumentConversion where Value == URL {
  /// An http or https URL with a host; the error shows it without its user info.
  static var httpURL: Self {
    let failure: @Sendable (String, String) -> String = { option, text in
      "--\(option) must be an http or https URL, not \"\(Redaction.url(text))\""
    }
    return Self(failure: failure, shown: \.absoluteString) { text in
      guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
        return nil
      }
      return url
    }
  }

  /// A file's path, relative to the current directory.
  static var file: Self { Self(expecting: "a path", shown: \.path) { URL(fileURLWithPath: $0) } }
}

extension ArgumentConversion where Value == USD {
  /// An amount in US dollars: `0.50`, `5`, `$12`, at most ``USD/maximum``.
  static var dollars: Self {
    let failure: @Sendable (String, String) -> String = { option, text in
      USD.isAmount(text)
        ? "--\(option) takes at most \(USD.maximum), not \(text)"
        : "--\(option) takes an amount in US dollars, such as 0.50 or 5, not \"\(text)\""
    }
    return Self(failure: failure, shown: \.decimal) { USD($0) }
  }
}

extension ArgumentConversion where Value == GlobalOptions.APIVersion {
  /// `v2` (or `2`) and `1.1` (or `v1.1`, `1`).
  static var apiVersion: Self {
    Self(expecting: "v2 or 1.1", shown: \.rawValue) { text in
      switch text {
      case "v2", "2": .v2
      case "1.1", "v1.1", "1": .v1
      default: nil
      }
    }
  }
}

extension ArgumentConversion where Value == String {
  /// A tweet id: 1 to 19 digits.
  static var tweetID: Self {
    Self(expecting: "a tweet id (digits)") { text in !text.isEmpty && text.count <= 19 && text.allSatisfy(\.isASCIIDigit) ? text : nil }
  }
}

extension ArgumentConversion where Value == Date {
  /// An ISO 8601 time: a date and time with a zone (`2024-05-01T12:00:00Z`, fractions allowed)
  /// or a date alone (`2024-05-01`, midnight UTC).
  static var time: Self {
    Self(expecting: "an ISO 8601 time such as 2024-05-01T12:00:00Z or 2024-05-01", shown: RFC3339.string(from:)) {
      RFC3339.date(fromTimeOrDay: $0)
    }
  }
}

extension ArgumentConversion where Value == [String] {
  /// A comma-separated list (`created_at,lang`), each item trimmed; an empty item is refused.
  static var list: Self {
    Self(expecting: "a comma-separated list", shown: \.commaSeparated) { text in
      let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
      return items.contains(where: \.isEmpty) ? nil : items
    }
  }
}

extension [String] {
  /// The items joined with commas, as `--fields` takes them.
  fileprivate var commaSeparated: String { joined(separator: ",") }
}

extension Character {
  var isASCIIDigit: Bool { isASCII && isNumber }
}

extension ArgumentConversion where Value == String {
  /// A profile's name (`--profile`, `TWEETS_PROFILE`): see ``GlobalOptions/isProfileName(_:)``.
  static var profileName: Self {
    let failure: @Sendable (String, String) -> String = { option, text in
      "--\(option) takes a name of 1 to \(GlobalOptions.profileNameMaxLength) letters, digits, \".\", \"_\", \"-\" or \"@\" "
        + "that does not start with \".\" (it names the profile's files in the config directory), not \(CommandSpec.shown(text))"
    }
    return Self(failure: failure) { GlobalOptions.isProfileName($0) ? $0 : nil }
  }
}
