import Foundation
import NetworkClient
import OAuth1

/// Media upload: initialize, append, finalize, status and metadata (`x-api/media/*.mdx`).
extension SandboxRoute {
  static let media: [SandboxRoute] = [
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "upload", "initialize"], name: "v2_media_initialize", limit: nil, bearerOK: false, allowed: [],
      scopes: ["media.write"]
    ) { $0.v2MediaInitialize($1) },
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "upload", "*", "append"], name: "v2_media_append", limit: nil, bearerOK: false, allowed: [],
      scopes: ["media.write"]
    ) {
      $0.v2MediaAppend($1)
    },
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "upload", "*", "finalize"], name: "v2_media_finalize", limit: nil, bearerOK: false, allowed: [],
      scopes: ["media.write"]
    ) { $0.v2MediaFinalize($1) },
    SandboxRoute(
      method: "GET", pattern: ["2", "media", "upload"], name: "v2_media_status", limit: nil, bearerOK: false, allowed: ["command", "media_id"],
      scopes: ["media.write"]
    ) {
      $0.v2MediaStatus($1)
    },
    SandboxRoute(
      method: "POST", pattern: ["2", "media", "metadata"], name: "v2_media_metadata", limit: nil, bearerOK: false, allowed: [],
      scopes: ["media.write"], billing: .request(.mediaMetadata)
    ) {
      $0.v2MediaMetadata($1)
    },
  ]
}

/// X's v2 media upload (`x-api/media/*.mdx`): initialize, append (multipart, `segment_index`
/// from 0, at most 8 MB a segment), finalize (the segments must add up to `total_bytes`, byte
/// for byte), status polls while a video or GIF is processed, and alt text.
extension SandboxState {
  static let maximumSegment = 8 * 1_048_576

  private static func invalid(_ message: String) -> SandboxResponse { .v2(400, XBodies.invalidBody(message)) }

  private func mediaInfo(_ id: String, _ upload: SandboxMediaState.Upload) -> JSON {
    var fields: [(String, JSON)] = [
      ("id", .string(id)), ("media_key", .string(Self.mediaKey(id, upload.category))), ("size", .int(upload.totalBytes)),
      ("expires_after_secs", .int(86_399)),
    ]
    if upload.isProcessed && upload.finalized {
      var processing: [(String, JSON)] = [("state", .string(upload.state))]
      switch upload.state {
      case "pending", "in_progress":
        processing += [("check_after_secs", .int(1)), ("progress_percent", .int(upload.state == "pending" ? 0 : 50))]
      case "failed":
        processing += [
          ("progress_percent", .int(100)),
          ("error", .object([("code", .int(1)), ("name", .string("InvalidMedia")), ("message", .string("Unsupported video format"))])),
        ]
      default:
        processing += [("progress_percent", .int(100))]
      }
      fields.append(("processing_info", .object(processing)))
    }
    return .object([("data", .object(fields))])
  }

  static func mediaKey(_ id: String, _ category: String) -> String {
    (category.hasSuffix("_image") ? "3_" : category.hasSuffix("_gif") ? "16_" : "7_") + id
  }

  mutating func v2MediaInitialize(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    guard let object = ctx.body.flatMap({ try? JSONSerialization.jsonObject(with: $0) }) as? [String: Any] else {
      return Self.invalid("Request body is not valid JSON.")
    }
    guard let type = object["media_type"] as? String, SandboxMediaState.mediaTypes.contains(type) else {
      return Self.invalid("$.media_type: must be one of the media types X takes")
    }
    guard let total = object["total_bytes"] as? Int, total > 0 else { return Self.invalid("$.total_bytes: must be a positive integer") }
    let category =
      object["media_category"] as? String ?? (type == "image/gif" ? "tweet_gif" : type.hasPrefix("image/") ? "tweet_image" : "tweet_video")
    guard SandboxMediaState.categories.contains(category) else { return Self.invalid("$.media_category: must be one of X's categories") }
    let id = String(media.nextID)
    media.nextID += 1
    let upload = SandboxMediaState.Upload(mediaType: type, category: category, totalBytes: total)
    media.uploads[id] = upload
    return .v2(200, mediaInfo(id, upload))
  }

  mutating func v2MediaAppend(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    guard var upload = media.uploads[id], !upload.finalized else { return Self.invalid("The media_id [\(id)] is not an upload in progress.") }
    let parts: [MultipartReader.Part]
    do {
      parts = try MultipartReader.parts(of: ctx.body ?? Data(), contentType: ctx.contentType)
    } catch {
      return Self.invalid("The body is not a well-formed multipart/form-data body: \(error.description).")
    }
    guard let indexText = parts.first(where: { $0.name == "segment_index" }), let index = Int(String(decoding: indexText.content, as: UTF8.self)),
      (0...999).contains(index)
    else { return Self.invalid("segment_index: must be an integer from 0 to 999") }
    guard let bytes = parts.first(where: { $0.name == "media" })?.content else { return Self.invalid("media: is missing but it is required") }
    guard bytes.count <= Self.maximumSegment else { return Self.invalid("The segment is larger than 8 MB.") }
    upload.segments[index] = bytes
    media.uploads[id] = upload
    return .v2(200, .object([("data", .object([("expires_at", .int(ctx.now + 86_400))]))]))
  }

  mutating func v2MediaFinalize(_ ctx: RouteContext) -> SandboxResponse {
    let id = ctx.captures.first ?? ""
    guard var upload = media.uploads[id] else { return Self.invalid("The media_id [\(id)] is not an upload.") }
    let indices = upload.segments.keys.sorted()
    let received = upload.segments.values.reduce(0) { $0 + $1.count }
    guard indices == Array(0..<indices.count), received == upload.totalBytes else {
      return Self.invalid("Segments do not add up to provided total file size.")
    }
    upload.finalized = true
    upload.pollsLeft = media.pendingPolls
    upload.state = upload.isProcessed ? "pending" : "succeeded"
    media.uploads[id] = upload
    return .v2(200, mediaInfo(id, upload))
  }

  mutating func v2MediaStatus(_ ctx: RouteContext) -> SandboxResponse {
    guard ctx.query["command"] == nil || ctx.query["command"] == "STATUS" else { return Self.invalid("command: must be STATUS") }
    let id = ctx.query["media_id"] ?? ""
    guard var upload = media.uploads[id], upload.finalized else { return Self.invalid("The media_id [\(id)] is not a finalized upload.") }
    if upload.state == "pending" || upload.state == "in_progress" {
      upload.pollsLeft -= 1
      upload.state = upload.pollsLeft > 0 ? "in_progress" : media.failProcessing ? "failed" : "succeeded"
    }
    media.uploads[id] = upload
    return .v2(200, mediaInfo(id, upload))
  }

  mutating func v2MediaMetadata(_ ctx: RouteContext) -> SandboxResponse {
    guard mediaType(ctx.contentType) == "application/json" else { return .v2(400, XBodies.jsonRequired) }
    let object = ctx.body.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
    guard let id = object?["id"] as? String, var upload = media.uploads[id] else { return Self.invalid("$.id: not an uploaded media id") }
    guard let text = ((object?["metadata"] as? [String: Any])?["alt_text"] as? [String: Any])?["text"] as? String, text.count <= 1000 else {
      return Self.invalid("$.metadata.alt_text.text: is missing or longer than 1000 characters")
    }
    upload.altText = text
    media.uploads[id] = upload
    return .v2(
      200,
      .object([("data", .object([("id", .string(id)), ("associated_metadata", .object([("alt_text", .object([("text", .string(text))]))]))]))]))
  }

  /// The media a post names, checked as X does: uploaded and processed, and at most four
  /// images or one GIF or video. `nil` and an answer for a refusal.
  func attachments(_ ids: [String], tweetID: UInt64) -> ([SandboxMedia]?, SandboxResponse?) {
    guard (1...4).contains(ids.count) else { return (nil, Self.invalid("$.media.media_ids: must hold 1 to 4 ids")) }
    var attached: [SandboxMedia] = []
    for (index, id) in ids.enumerated() {
      guard let upload = media.uploads[id], upload.finalized, upload.state == "succeeded", let number = UInt64(id) else {
        return (nil, Self.invalid("Your media IDs are invalid."))
      }
      if upload.isProcessed && ids.count > 1 { return (nil, Self.invalid("A post takes up to 4 images, or 1 GIF or video.")) }
      // X's `dm_` categories are a message's, not a post's.
      guard !upload.category.hasPrefix("dm_") else { return (nil, Self.invalid("Your media IDs are invalid.")) }
      let kind: SandboxMedia.Kind = upload.category == "tweet_image" ? .photo : upload.category == "tweet_gif" ? .animatedGIF : .video
      var item = SandboxMedia(
        id: number, kind: kind, width: 1280, height: 720,
        expandedURL: "https://x.com/sandbox_user/status/\(tweetID)/\(kind == .photo ? "photo" : "video")/\(index + 1)")
      item.altText = upload.altText
      if kind == .photo {
        item.url = "https://pbs.twimg.com/media/sandbox\(id).jpg"
      } else {
        item.previewImageURL = "https://pbs.twimg.com/media/sandbox\(id)_preview.jpg"
      }
      attached.append(item)
    }
    return (attached, nil)
  }
}
