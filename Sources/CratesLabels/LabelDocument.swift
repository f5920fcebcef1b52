/// A label PDF: labels on the pages of a layout, then any contents lists.
///
///     let layout = try LabelSheetLayout.named("a4-3x7")
///     let labels = [Label(location: code, name: "Crate A3", path: ["Living Room", "Shelf 2"])]
///     try LabelDocument.write(labels: labels, layout: layout, options: LabelOptions(skip: 4), to: "labels.pdf")
///
/// Laying out (`init`) checks everything that can be wrong with the input (a name longer
/// than a label, a bleed too large, a skip past the sheet) before anything is drawn or
/// written; `write(to:)` then renders with cairo and replaces the file atomically.
public struct LabelDocument: Hashable, Sendable {
    /// What is drawn where.
    public let plan: LabelDocumentPlan

    /// Lays out `labels`, then `contents`, on `layout`, measuring text with cairo's fonts.
    public init(
        labels: [Label], contents: [LabelContents] = [], layout: LabelSheetLayout,
        options: LabelOptions = LabelOptions()
    ) throws(LabelError) {
        let planner = LabelPlanner(layout: layout, options: options, measurer: CairoTextMeasurer())
        plan = try planner.plan(labels: labels, contents: contents)
    }

    /// A document for a plan made elsewhere (a `LabelPlanner` with another measurer).
    public init(plan: LabelDocumentPlan) {
        self.plan = plan
    }

    /// The PDF's bytes.
    public func pdf() throws(LabelError) -> [UInt8] {
        try CairoPDFRenderer.render(plan, title: "crates labels (\(plan.layout))")
    }

    /// Writes the PDF to `path`: to a temporary file beside it, then renamed over it, so that
    /// `path` is never half written and is left as it was on failure.
    public func write(to path: String) throws(LabelError) {
        try AtomicFile.write(pdf(), to: path)
    }

    /// Lays out and writes in one call; returns the plan (what was drawn where).
    @discardableResult
    public static func write(
        labels: [Label], contents: [LabelContents] = [], layout: LabelSheetLayout,
        options: LabelOptions = LabelOptions(), to path: String
    ) throws(LabelError) -> LabelDocumentPlan {
        let document = try LabelDocument(labels: labels, contents: contents, layout: layout, options: options)
        try document.write(to: path)
        return document.plan
    }
}
