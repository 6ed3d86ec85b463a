import Foundation

extension XSandbox {
  /// Puts a file for every media URL of its posts (photos, previews, every variant of a video
  /// or GIF) on the other origin served at `baseURL`, and renders those URLs there from now on:
  /// what ``SandboxServer`` does as it starts, so that a client can download media as from X's
  /// CDN. The files' bytes are generated from their paths (the same every run) and sized as
  /// the variants' bit rates suggest (``mediaFileBytes(for:bitRate:)``).
  func publishMedia(at baseURL: URL) {
    offsite.baseURL = baseURL
    let media = state.withLock { state in
      state.mediaOrigin = baseURL.absoluteString
      return state.tweets.flatMap(\.media)
    }
    for item in media {
      var files: [(url: String, bitRate: Int?)] = []
      if let url = item.url { files.append((url, nil)) }
      if let preview = item.previewImageURL { files.append((preview, nil)) }
      files += item.variants.map { ($0.url, $0.bitRate) }
      for file in files {
        guard let path = Self.offsitePath(of: file.url) else { continue }
        offsite.store(Self.mediaFile(path: path, bitRate: file.bitRate), at: path)
      }
    }
  }

  /// The other origin's path of an X media URL: `https://pbs.twimg.com/media/A.jpg?x=1` is
  /// `/pbs.twimg.com/media/A.jpg`; `nil` for a URL that is not `https`.
  static func offsitePath(of url: String) -> String? {
    guard let components = URLComponents(string: url), components.scheme == "https", let host = components.host else { return nil }
    return "/" + host + components.percentEncodedPath
  }

  /// The size of a generated media file: a photo or still image 48 KiB, a video variant its
  /// bit rate divided by 16 (136,000 bytes for 2,176 kbit/s), a GIF (bit rate 0) 40 KiB: small,
  /// yet several chunks of a slow body, and the better variant always the larger.
  static func mediaFileBytes(for path: String, bitRate: Int?) -> Int {
    guard let bitRate else { return 48 * 1024 }
    return bitRate > 0 ? bitRate / 16 : 40 * 1024
  }

  /// A media file's bytes: an HLS playlist for `.m3u8`, otherwise bytes drawn from a generator
  /// seeded by the path, so each file differs and is the same every run.
  static func mediaFile(path: String, bitRate: Int?) -> Data {
    if path.hasSuffix(".m3u8") {
      return Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2176000\n\(path.replacingOccurrences(of: ".m3u8", with: ".mp4"))\n".utf8)
    }
    // FNV-1a of the path seeds a xorshift generator.
    var seed: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in path.utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
    var bytes = [UInt8](repeating: 0, count: mediaFileBytes(for: path, bitRate: bitRate))
    for index in bytes.indices {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      bytes[index] = UInt8(truncatingIfNeeded: seed >> 32)
    }
    return Data(bytes)
  }
}

extension SandboxState {
  /// `url` as this sandbox renders it: on the other origin when it is served (see
  /// ``mediaOrigin``), X's own otherwise.
  func mediaURL(_ url: String) -> String {
    guard let origin = mediaOrigin, let path = XSandbox.offsitePath(of: url) else { return url }
    let query = url.firstIndex(of: "?").map { String(url[$0...]) } ?? ""
    return origin + path + query
  }
}
