import Foundation

/// Where a release's cover image is, as the JSON Discogs sent says: a release's `images`
/// (the primary one's `uri`, else the first one's, else a `uri150`), a search result's or a
/// collection item's `cover_image`, else any `thumb`. Discogs gives these only in answers to
/// signed requests (an anonymous answer carries empty strings), so a release stored from an
/// anonymous fetch has none: nil then, and the release's full fetch, signed, gives one.
public enum CoverAddress {
    public static func url(in rawJSON: String) -> String? {
        guard let data = rawJSON.data(using: .utf8),
            case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return nil }
        return url(in: object)
    }

    static func url(in object: [String: JSONValue]) -> String? {
        if case .array(let images)? = object["images"] {
            let described = images.compactMap { image -> [String: JSONValue]? in
                if case .object(let fields) = image { return fields }
                return nil
            }
            let primary = described.first { $0["type"] == .string("primary") }
            for image in [primary].compactMap({ $0 }) + described {
                if let uri = text(image["uri"]) ?? text(image["uri150"]) { return uri }
            }
        }
        return text(object["cover_image"]) ?? text(object["thumb"])
    }

    /// A non-empty http(s) address, or nil.
    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://") else { return nil }
        return trimmed
    }
}
