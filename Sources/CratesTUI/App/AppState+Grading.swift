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
        guard let action = KeyMap.action(for: key, in: .grades) else { return [] }
        var picker = picker
        var state = state
        let last = picker.labels.count - 1
        switch action {
        case .moveDown: picker.selected = min(last, picker.selected + 1)
        case .moveUp: picker.selected = max(0, picker.selected - 1)
        case .top: picker.selected = 0
        case .bottom: picker.selected = last
        case .open:
            state.picker = nil
            mode = .details(state)
            return [.session(.grade(recordID: state.recordID, picker.change))]
        case .back, .quit:
            state.picker = nil
            mode = .details(state)
            return []
        case .redraw: return [.redraw]
        default: return []
        }
        state.picker = picker
        mode = .details(state)
        return []
    }
}
