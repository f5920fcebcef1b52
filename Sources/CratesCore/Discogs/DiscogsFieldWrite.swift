/// One value to set on an instance's custom field (`POST …/instances/{instance_id}/fields/{field_id}?value=…`).
public struct DiscogsFieldWrite: Hashable, Sendable {
    public var field: DiscogsCollectionField
    public var value: String

    public init(field: DiscogsCollectionField, value: String) {
        self.field = field
        self.value = value
    }
}
