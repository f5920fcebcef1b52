import CratesCore

extension AppState {
    /// The grade or rating picker, a box over the details: the title, then one row a
    /// choice, the current choice highlighted.
    func renderGradePicker(_ picker: GradePicker, into screen: inout Screen) {
        let labels = picker.labels
        let keys = picker.kind == .rating ? "0–5 or Enter sets it" : "Enter sets it"
        let title = " \(picker.kind.title): \(keys), Esc leaves it "
        let boxWidth = min(width - 2, max(DisplayWidth.of(title), (labels.map(DisplayWidth.of).max() ?? 0) + 6))
        let top = 2
        let left = max(1, (width - boxWidth) / 2)
        let visible = max(1, min(labels.count, listHeight - 3))
        let first = max(0, min(picker.selected - visible + 1, labels.count - visible))
        screen.put(TerminalText.fitted(title, to: boxWidth), row: top, column: left, style: .header)
        for (offset, label) in labels.dropFirst(first).prefix(visible).enumerated() {
            let index = first + offset
            let selected = index == picker.selected
            let text = TerminalText.fitted((selected ? " ▸ " : "   ") + label, to: boxWidth)
            screen.put(text, row: top + 1 + offset, column: left, style: selected ? .selected : .status)
        }
    }
}
