/// The value of one of the user's custom collection fields on one instance: an entry of an
/// instance's `notes` (`{"field_id": 1, "value": "Very Good Plus (VG+)"}`). Despite the
/// name, Discogs keeps every custom field here: the media and sleeve conditions as well as
/// the free-text "Notes".
public struct DiscogsInstanceNote: Decodable, Hashable, Sendable {
    public var fieldID: Int
    /// As Discogs sent it (a textarea's text may hold newlines; see `DiscogsCopyFields`).
    public var value: String

    enum CodingKeys: String, CodingKey {
        case value
        case fieldID = "field_id"
    }

    public init(fieldID: Int, value: String) {
        self.fieldID = fieldID
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fieldID = try c.decode(Int.self, forKey: .fieldID)
        // A string in every recorded answer; a number is taken as its text.
        if let text = try? c.decodeIfPresent(String.self, forKey: .value) {
            value = text
        } else if let number = try? c.decodeIfPresent(Int64.self, forKey: .value) {
            value = String(number)
        } else {
            value = ""
        }
    }
}
