/// A value the user's Discogs field does not offer (e.g. "Not Graded" for a sleeve field
/// whose options lack it).
public struct DiscogsFieldValueError: Error, Hashable, Sendable, CustomStringConvertible {
    public var field: DiscogsCollectionField
    public var value: String

    public init(field: DiscogsCollectionField, value: String) {
        self.field = field
        self.value = value
    }

    public var description: String {
        let name = ControlCharacters.cleaned(field.name)
        let options = field.options.map(ControlCharacters.cleaned).joined(separator: ", ")
        return "your Discogs field \"\(name)\" does not offer \"\(ControlCharacters.cleaned(value))\": its options are \(options)"
    }
}
