/// An order a key cycles through (`O` in the list and in the wantlist view): each case
/// leads to the next, the last back to the first.
public protocol CyclingOrder: CaseIterable, Equatable where AllCases == [Self] {}

extension CyclingOrder {
    /// The next order.
    public var next: Self {
        let all = Self.allCases
        let index = all.firstIndex(of: self) ?? 0
        return all[(index + 1) % all.count]
    }
}
