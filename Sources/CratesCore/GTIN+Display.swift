extension GTIN {
    /// `input` made safe to echo on a terminal or in a tab-separated column (see
    /// `EscapedText.displayForm`): a scanner gone wild can send kilobytes and control bytes.
    public static func displayForm(of input: String, limit: Int = 64) -> String {
        EscapedText.displayForm(of: input, limit: limit)
    }
}
