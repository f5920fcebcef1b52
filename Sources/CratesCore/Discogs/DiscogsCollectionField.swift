/// One of the user's custom collection fields (`GET /users/{username}/collection/fields`):
/// a dropdown with fixed options (the media and sleeve conditions) or free text (a
/// "textarea", such as "Notes"). Users create and rename them on the Discogs site; the API
/// can only list them and set their values on an instance.
public struct DiscogsCollectionField: Decodable, Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The value must be one of `options`, exactly (Discogs answers 422 otherwise).
        case dropdown
        /// Free text, `lines` high on the site.
        case textarea
        /// A type this version of crates does not know.
        case other(String)
    }

    /// What clears a free-text field: Discogs refuses an empty value ("Missing value.") and
    /// has no call that removes one, so a cleared note is sent as a single space, which shows
    /// as nothing there and which crates reads back as no note (`DiscogsCollectionFieldMap.
    /// read`, `SyncedValues`). A dropdown has no such value: its options are fixed.
    public static let clearedText = " "

    public var id: Int
    public var name: String
    public var kind: Kind
    /// A dropdown's choices, in the user's order; empty for other kinds.
    public var options: [String]
    public var position: Int?
    /// Whether people other than the owner see this field's values.
    public var isPublic: Bool?
    /// A textarea's height on the site.
    public var lines: Int?

    enum CodingKeys: String, CodingKey {
        case id, name, type, options, position, lines
        case isPublic = "public"
    }

    public init(id: Int, name: String, kind: Kind, options: [String] = [], position: Int? = nil, isPublic: Bool? = nil, lines: Int? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.options = options
        self.position = position
        self.isPublic = isPublic
        self.lines = lines
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        name = (try? c.decodeIfPresent(String.self, forKey: .name)) ?? ""
        let type = (try? c.decodeIfPresent(String.self, forKey: .type)) ?? ""
        switch type {
        case "dropdown": kind = .dropdown
        case "textarea": kind = .textarea
        default: kind = .other(ControlCharacters.cleaned(type))
        }
        options = (try? c.decodeIfPresent([String].self, forKey: .options)) ?? []
        position = try? c.decodeIfPresent(Int.self, forKey: .position)
        isPublic = try? c.decodeIfPresent(Bool.self, forKey: .isPublic)
        lines = try? c.decodeIfPresent(Int.self, forKey: .lines)
    }

    /// Whether Discogs will take `value` for this field: a dropdown takes one of its options,
    /// exactly ("Edit Fields Instance": "the value must match one of the values in the
    /// field's list of options"); any other field takes any text.
    public func accepts(_ value: String) -> Bool {
        kind == .dropdown ? options.contains(value) : true
    }
}

/// The body of `GET /users/{username}/collection/fields`: `{"fields": [...]}`.
public struct DiscogsCollectionFields: Decodable, Hashable, Sendable {
    public var fields: [DiscogsCollectionField]
}
