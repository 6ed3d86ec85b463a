import Foundation
import NetworkClient

extension XClient.V2 {
  /// Uploads a file with X's v2 media endpoints and returns its media id: initialize, append
  /// the file in segments (4 MiB by default, read from disk one at a time, so memory does not
  /// grow with the file), finalize, then, for a video or GIF, poll the status as
  /// `check_after_secs` says until `succeeded` or `failed` (`x-api/media/*.mdx`). Alt text, when
  /// given, goes through the metadata endpoint.
  ///
  /// The type and size are checked before any byte is sent. Each segment is its own request,
  /// marked safe to repeat (X keys it by `segment_index`), so the client's retry resends that
  /// segment alone after a 5xx or a lost connection, never the whole file.
  ///
  /// ```swift
  /// let media = try await client.v2.uploadMedia(URL(fileURLWithPath: "clip.mp4"), altText: "A cat") { print($0.bytesSent) }
  /// _ = try await client.v2.post(text: "Look", mediaIDs: [media.id])
  /// ```
  public func uploadMedia(
    _ file: URL, altText: String? = nil, segmentSize: Int = 4 << 20, limits: MediaLimits = MediaLimits(),
    sleeper: any Sleeper = TaskSleeper(), progress: (@Sendable (MediaUploadProgress) -> Void)? = nil
  ) async throws(XError) -> UploadedMedia {
    try await upload(
      file, kind: try MediaKind(file: file), altText: altText, segmentSize: segmentSize, limits: limits, sleeper: sleeper, progress: progress)
  }

  /// ``uploadMedia(_:altText:segmentSize:limits:sleeper:progress:)`` for a direct message: the
  /// file goes up in X's `dm_image`, `dm_gif` or `dm_video` category, which a message's
  /// `attachments` take (a post's categories are refused there).
  ///
  /// ```swift
  /// let media = try await client.v2.uploadDirectMessageMedia(URL(fileURLWithPath: "fish.jpg"))
  /// _ = try await client.v2.sendDM(to: "1002", text: "Lunch", mediaIDs: [media.id])
  /// ```
  public func uploadDirectMessageMedia(
    _ file: URL, segmentSize: Int = 4 << 20, limits: MediaLimits = MediaLimits(), sleeper: any Sleeper = TaskSleeper(),
    progress: (@Sendable (MediaUploadProgress) -> Void)? = nil
  ) async throws(XError) -> UploadedMedia {
    try await upload(
      file, kind: try MediaKind(file: file).forDirectMessage, altText: nil, segmentSize: segmentSize, limits: limits, sleeper: sleeper,
      progress: progress)
  }

  /// The upload of `file` as `kind`.
  private func upload(
    _ file: URL, kind: MediaKind, altText: String?, segmentSize: Int, limits: MediaLimits, sleeper: any Sleeper,
    progress: (@Sendable (MediaUploadProgress) -> Void)?
  ) async throws(XError) -> UploadedMedia {
    let size: Int64
    do {
      size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
    } catch {
      throw .invalidMedia(message: "cannot read \(file.path): \((error as NSError).localizedDescription)")
    }
    guard size > 0 else { throw .invalidMedia(message: "\(file.lastPathComponent) is empty") }
    let limit = limits.bytes(for: kind)
    guard size <= limit else {
      throw .invalidMedia(
        message:
          "\(file.lastPathComponent) is \(Self.megabytes(size)); X takes \(kind.category.split(separator: "_").last.map(String.init) ?? kind.category)s up to \(Self.megabytes(limit))"
      )
    }
    if let altText, altText.count > 1000 { throw .invalidMedia(message: "alt text is \(altText.count) characters; X takes at most 1,000") }

    struct Initialize: Encodable, Sendable {
      let media_type: String
      let total_bytes: Int64
      let media_category: String
    }
    let initialized = try await client.send(
      Request<V2Envelope<MediaInfo>>(
        method: XEndpoint.initializeMediaUpload.method, path: XEndpoint.initializeMediaUpload.filled(),
        body: .json(Initialize(media_type: kind.mediaType, total_bytes: size, media_category: kind.category))))
    guard let media = initialized.value.data else {
      throw .unexpectedResponse(status: initialized.response.statusCode, excerpt: initialized.response.text)
    }

    guard let input = try? FileHandle(forReadingFrom: file) else { throw .invalidMedia(message: "cannot read \(file.path)") }
    defer { try? input.close() }
    let segments = Int((size + Int64(segmentSize) - 1) / Int64(segmentSize))
    var sent: Int64 = 0
    for index in 0..<segments {
      let bytes: Data
      do {
        bytes = try input.read(upToCount: segmentSize) ?? Data()
      } catch {
        throw .invalidMedia(message: "cannot read \(file.path): \(error.localizedDescription)")
      }
      let form = MultipartFormData([
        .text(name: "segment_index", value: String(index)),
        .data(name: "media", data: bytes, filename: file.lastPathComponent, contentType: "application/octet-stream"),
      ])
      _ = try await client.send(
        Request<HTTPResponse>(
          method: XEndpoint.appendMediaUpload.method, path: XEndpoint.appendMediaUpload.filled(media.id), body: .multipart(form), isIdempotent: true))
      sent += Int64(bytes.count)
      progress?(MediaUploadProgress(bytesSent: sent, totalBytes: size, segment: index, segments: segments, processing: nil))
    }

    var info = try await mediaInfo(Request(method: XEndpoint.finalizeMediaUpload.method, path: XEndpoint.finalizeMediaUpload.filled(media.id)))
    while let processing = info.processing_info, processing.state != "succeeded" {
      progress?(
        MediaUploadProgress(
          bytesSent: size, totalBytes: size, segment: segments - 1, segments: segments, processing: (processing.state, processing.progress_percent)))
      if processing.state == "failed" {
        let reason = processing.error.map { "\($0.name ?? "error") \($0.code.map(String.init) ?? ""): \($0.message ?? "")" } ?? "no reason given"
        throw .mediaProcessingFailed(message: "X could not process \(file.lastPathComponent) (\(reason))")
      }
      do {
        try await sleeper.sleep(seconds: TimeInterval(max(1, processing.check_after_secs ?? 1)))
      } catch {
        throw .network(.cancelled)
      }
      info = try await mediaInfo(Request(path: XEndpoint.getMediaUploadStatus.filled(), query: [("command", "STATUS"), ("media_id", media.id)]))
    }

    if let altText {
      struct Metadata: Encodable, Sendable {
        struct Alt: Encodable, Sendable { let text: String }
        struct Fields: Encodable, Sendable { let alt_text: Alt }
        let id: String
        let metadata: Fields
      }
      _ = try await client.send(
        Request<HTTPResponse>(
          method: XEndpoint.createMediaMetadata.method, path: XEndpoint.createMediaMetadata.filled(),
          body: .json(Metadata(id: media.id, metadata: .init(alt_text: .init(text: altText))))))
    }
    return UploadedMedia(id: media.id, mediaKey: media.media_key ?? info.media_key, kind: kind)
  }

  /// `data` of a finalize or status answer.
  private func mediaInfo(_ request: Request<V2Envelope<MediaInfo>>) async throws(XError) -> MediaInfo {
    let response = try await client.send(request)
    guard let info = response.value.data else { throw .unexpectedResponse(status: response.response.statusCode, excerpt: response.response.text) }
    return info
  }

  static func megabytes(_ bytes: Int64) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_000_000)
  }
}

/// The `data` of X's media upload answers.
struct MediaInfo: Decodable, Sendable {
  struct Processing: Decodable, Sendable {
    struct Failure: Decodable, Sendable {
      let code: Int?
      let name: String?
      let message: String?
    }
    let state: String
    let check_after_secs: Int?
    let progress_percent: Int?
    /// Not in the v2 specification; read when present, as v1.1 sent it.
    let error: Failure?
  }
  let id: String
  let media_key: String?
  let processing_info: Processing?
}
