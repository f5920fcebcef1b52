/// A value the user's Discogs field does not offer (e.g. "Not Graded" for a sleeve field
/// whose options lack it).
public struct DiscogsFieldValueError: Error, Hashable, Sendable, CustomStringConvertible {
    public var field: DiscogsCollectionField
    public var value: String

    public var description: String {
        let name = DiscogsText.clean(field.name)
        let options = field.options.map(DiscogsText.clean).joined(separator: ", ")
        return "your Discogs field \"\(name)\" does not offer \"\(DiscogsText.clean(value))\": its options are \(options)"
    }
}
