import CommandLineSupport
import Foundation
import XAPI

/// The media items of JSON lines: `tweets`' own output (`--format jsonl`: each post's `media`,
/// with `key`, `type`, `url` and `variants`) or X's raw answers (`--format raw`:
/// `includes.media`, with `media_key`, `preview_image_url` and `variants`), each item once.
enum MediaInput {
  /// The longest line read (16 MiB, as X's largest answers are far smaller): a longer one is
  /// refused by name rather than held.
  static let maxLineBytes = 16 << 20

  /// The items of `lines`, first seen first.
  static func items(_ lines: some Sequence<Substring>) throws(UsageError) -> [Media] {
    var seen = Set<String>()
    var items: [Media] = []
    for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
      guard line.utf8.count <= maxLineBytes else { throw UsageError("line \(number + 1) is longer than \(maxLineBytes) bytes") }
      guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
        throw UsageError("line \(number + 1) is not a JSON object (give tweets' jsonl or raw output)")
      }
      let included = (object["includes"] as? [String: Any])?["media"] as? [Any] ?? []
      let own = object["media"] as? [Any] ?? []
      for case let entry as [String: Any] in own + included {
        guard let media = media(entry), seen.insert(media.key).inserted else { continue }
        items.append(media)
      }
    }
    return items
  }

  /// One item of either shape; `nil` without a key and a type.
  static func media(_ entry: [String: Any]) -> Media? {
    guard let key = entry["key"] as? String ?? entry["media_key"] as? String, let type = entry["type"] as? String else { return nil }
    let variants = (entry["variants"] as? [Any]).map { list in
      list.compactMap { item -> MediaVariant? in
        guard let item = item as? [String: Any], let url = item["url"] as? String else { return nil }
        let rate = (item["bit_rate"] ?? item["bitrate"]) as? Int
        return MediaVariant(bitRate: rate, contentType: item["content_type"] as? String ?? "", url: url)
      }
    }
    let url = entry["url"] as? String ?? entry["preview_image_url"] as? String
    return Media(key: key, type: type, url: url, altText: entry["alt_text"] as? String, variants: variants)
  }
}
