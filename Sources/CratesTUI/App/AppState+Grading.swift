import CratesCore

/// The details view's grade and rating pickers (`M`, `V`, `*`): moved with the picker's
/// keys, Enter sets the value, Esc leaves it as it was.
extension AppState {
    mutating func openGradePicker(_ action: Action, _ state: DetailsState) {
        guard let details = state.details else { return }
        let kind: GradePicker.Kind = switch action {
        case .mediaGrade: .media
        case .sleeveGrade: .sleeve
        default: .rating
        }
        var state = state
        state.picker = GradePicker(kind: kind, grading: details.record.grading)
        mode = .details(state)
    }

    mutating func gradePickerKey(_ key: Key, _ picker: GradePicker, _ state: DetailsState) -> [AppCommand] {
        var picker = picker
        var state = state
        switch picker.answer(key) {
        case .set:
            state.picker = nil
            mode = .details(state)
            return [.session(.grade(recordID: state.recordID, picker.change))]
        case .leave:
            state.picker = nil
            mode = .details(state)
            return []
        case .redraw:
            return [.redraw]
        case .notARating:
            // 6 to 9 are no rating: said so, and the picker stays.
            say("A rating is 0 to 5 stars", isError: true)
            return []
        case .none:
            state.picker = picker
            mode = .details(state)
            return []
        }
    }
}

extension Key {
    /// The digit typed, for the rating picker's stars; nil for any other key.
    var ratingDigit: Int? {
        guard case .character(let c) = self, c.isASCII, let digit = c.wholeNumberValue else { return nil }
        return digit
    }
}
