import Foundation

/// A copy out on loan, as the loans view lists it: which record, to whom, since when.
/// "Who has my records?" is answered by these, by borrower.
public struct LoanListing: Hashable, Sendable {
    public var recordID: Int64
    /// "Artist — Title" as the list shows it (`RecordDetails.displayTitle`).
    public var title: String
    public var loan: Loan

    public init(recordID: Int64, title: String, loan: Loan) {
        self.recordID = recordID
        self.title = title
        self.loan = loan
    }

    /// By borrower (case and accents folded), then the longest out first, then by title: each
    /// person's records together, the oldest loan at the top.
    public static func ordered(_ listings: [LoanListing]) -> [LoanListing] {
        listings.sorted { a, b in
            let (to, other) = (TextFolding.fold(a.loan.to), TextFolding.fold(b.loan.to))
            if to != other { return to < other }
            if a.loan.since != b.loan.since { return (a.loan.since ?? "") < (b.loan.since ?? "") }
            return a.title < b.title
        }
    }

    /// How long the copy has been out on `today` (`YYYY-MM-DD`): "12 days", "1 day", "today";
    /// nil without a day it was lent.
    public func timeOut(today: String) -> String? {
        guard let since = loan.since, let from = Self.day(since), let to = Self.day(today) else { return nil }
        let days = Int((to.timeIntervalSince(from) / 86_400).rounded())
        switch days {
        case ..<1: return "today"
        case 1: return "1 day"
        default: return "\(days) days"
        }
    }

    private static func day(_ text: String) -> Date? {
        UTCTimestamp.parse(text)
    }
}
