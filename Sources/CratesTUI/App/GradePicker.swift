import CratesCore

/// The details view's picker for one of a copy's values: its media condition (`M`), its
/// sleeve condition (`V`), or its rating (`*`). Discogs' grades, best first, after "not
/// graded"; ratings from 0 (not rated) to 5 stars.
public struct GradePicker: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case media, sleeve, rating

        /// The picker's title.
        public var title: String {
            switch self {
            case .media: "Media condition"
            case .sleeve: "Sleeve condition"
            case .rating: "Rating"
            }
        }
    }

    public var kind: Kind
    public var selected: Int

    /// The picker opened on the copy's current value.
    public init(kind: Kind, grading: CopyGrading) {
        self.kind = kind
        let current: Int
        switch kind {
        case .media: current = grading.media.flatMap { MediaCondition.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        case .sleeve: current = grading.sleeve.flatMap { SleeveCondition.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        case .rating: current = grading.rating.value
        }
        selected = current
    }

    /// The choices, in order: what each row shows.
    public var labels: [String] {
        switch kind {
        case .media: ["not graded"] + MediaCondition.allCases.map(\.rawValue)
        case .sleeve: ["not graded"] + SleeveCondition.allCases.map(\.rawValue)
        // Each row led by the digit that sets it: "3  ★★★☆☆".
        case .rating: Rating.range.map { "\($0)  \(Rating(clamping: $0).stars)" }
        }
    }

    /// The change the selected row makes.
    public var change: CopyGradingChange {
        switch kind {
        case .media:
            let grade = selected > 0 && selected <= MediaCondition.allCases.count ? MediaCondition.allCases[selected - 1] : nil
            return CopyGradingChange(media: grade.map { .set($0) } ?? .clear)
        case .sleeve:
            let grade = selected > 0 && selected <= SleeveCondition.allCases.count ? SleeveCondition.allCases[selected - 1] : nil
            return CopyGradingChange(sleeve: grade.map { .set($0) } ?? .clear)
        case .rating:
            return CopyGradingChange(rating: Rating(clamping: selected))
        }
    }

    /// What a key did in the picker.
    public enum Answer: Equatable, Sendable {
        /// Enter, or a rating's digit: the selected value is to be set.
        case set
        /// Esc: leave the value as it was.
        case leave
        case redraw
        /// A digit of no rating (6 to 9): the picker stays.
        case notARating
        /// Moved, or a key the picker does not take.
        case none
    }

    /// Takes one key (the details view's picker and the list's share these keys): moves the
    /// selection, or says what to do; in the rating picker a digit selects that many stars.
    public mutating func answer(_ key: Key) -> Answer {
        if kind == .rating, let digit = key.ratingDigit {
            guard Rating.range.contains(digit) else { return .notARating }
            selected = digit
            return .set
        }
        guard let action = KeyMap.action(for: key, in: .grades) else { return .none }
        let last = labels.count - 1
        switch action {
        case .moveDown: selected = min(last, selected + 1)
        case .moveUp: selected = max(0, selected - 1)
        case .top: selected = 0
        case .bottom: selected = last
        case .open: return .set
        case .back, .quit: return .leave
        case .redraw: return .redraw
        default: break
        }
        return .none
    }
}
