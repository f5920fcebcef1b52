/// A label PDF: labels on the pages of a layout, then any contents lists.
///
///     let layout = try LabelSheetLayout.named("a4-3x7")
///     let labels = [Label(location: code, name: "Crate A3", path: ["Living Room", "Shelf 2"])]
///     let bytes = try LabelDocument(labels: labels, layout: layout, options: LabelOptions(skip: 4)).pdf()
///
/// Laying out (`init`) checks everything that can be wrong with the input (a name longer
/// than a label, a bleed too large, a skip past the sheet) before anything is drawn;
/// `pdf()` then renders with cairo. Writing the file is the caller's (crates writes it
/// through `ExportFile`, atomically).
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
}
