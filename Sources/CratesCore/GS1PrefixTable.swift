/// The GS1 company-prefix table: which GS1 member organisation issued a prefix, or which
/// special range (ISBN, coupons, restricted distribution) it belongs to.
public enum GS1PrefixTable {}
