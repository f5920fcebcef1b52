/// How one code was answered by a check: the answer, or why it is not a code a check
/// answers (not a barcode, or not a record's: an ISBN, a coupon, a crates label), never
/// looked up.
public enum CheckOutcome: Hashable, Sendable {
    case answered(CheckAnswer)
    case refused(code: String, reason: String)

    public var answer: CheckAnswer? {
        if case .answered(let answer) = self { return answer }
        return nil
    }
}

/// A checked code, to check again once something changed (a copy bought, a want added): its
/// place in the fair's list (`serial`), what was read, and as it was typed.
public struct CheckReference: Hashable, Sendable {
    public var serial: Int
    public var entry: CodeEntry
    public var code: String

    public init(serial: Int, entry: CodeEntry, code: String) {
        self.serial = serial
        self.entry = entry
        self.code = code
    }
}

/// A want with the price cache's latest figure of its release.
public struct WantListing: Hashable, Sendable, Identifiable {
    public var want: WantEntry
    public var price: PriceFigure?

    public var id: Int { want.releaseID }

    public init(want: WantEntry, price: PriceFigure?) {
        self.want = want
        self.price = price
    }
}

/// What the collection UI asks of the wantlist.
public enum WantRequest: Hashable, Sendable {
    /// The wantlist, with prices (answered by `SessionEvent.wantlist`).
    case load
    /// Puts a release on the wantlist (one a check found).
    case add(CheckedRelease)
    /// Puts the release a typed or scanned code names on the wantlist.
    case addCode(String)
    case remove(releaseID: Int)
    /// Takes these releases off the wantlist (the wantlist view's tagged ones), in one go.
    case removeTagged(releaseIDs: [Int])
    /// Sets a want's rating.
    case rate(releaseID: Int, Rating)
    /// Asks Discogs' marketplace again for the wanted releases' prices (background priority).
    case refreshPrices
}
