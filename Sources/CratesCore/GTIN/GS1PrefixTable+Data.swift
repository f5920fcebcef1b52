// The GS1 prefix table (from ../shared/gs1/gtin-prefixes.tsv), compiled into the binary so
// that CratesCore needs no file I/O and an installed `crates` needs no resource bundle.
// Regenerate with `scripts/gen-gs1-table.sh`; a test checks it still matches the shared table.
extension GS1PrefixTable {
    /// Tab-separated `range<TAB>used_by`, as published; the first line is the header.
    static let tsv = #"""
range	used_by
000-019	United States and Canada
020-029	Restricted distribution (MO defined)
030-039	United States
040-049	Restricted distribution (MO defined)
050-059	Coupons
060-139	United States and Canada
200-299	Restricted distribution (MO defined)
300-379	France and Monaco
380	Bulgaria
383	Slovenia
385	Croatia
387	Bosnia and Herzegovina
389	Montenegro
390	Kosovo
400-440	Germany
450-459	Japan
460-469	Russia
470	Kyrgyzstan
471	Taiwan
474	Estonia
475	Latvia
476	Azerbaijan
477	Lithuania
478	Uzbekistan
479	Sri Lanka
480	Philippines
481	Belarus
482	Ukraine
484	Moldova
485	Armenia
486	Georgia
487	Kazakhstan
488	Tajikistan
489	Hong Kong SAR
490-499	Japan
500-509	United Kingdom
520-521	Greece
528	Lebanon
529	Cyprus
530	Albania
531	Macedonia
535	Malta
539	Ireland
540-549	Belgium and Luxembourg
560	Portugal
569	Iceland
570-579	Denmark, Faroe Islands, and Greenland
590	Poland
594	Romania
599	Hungary
600-601	South Africa
603	Ghana
604	Senegal
608	Bahrain
609	Mauritius
611	Morocco
613	Algeria
615	Nigeria
616	Kenya
618	Côte d'Ivoire
619	Tunisia
620	Tanzania
621	Syria
622	Egypt
623	Brunei
624	Libya
625	Jordan
626	Iran
627	Kuwait
628	Saudi Arabia
629	United Arab Emirates
630-639	Antarctica
640-649	Finland
690-699	China, The People's Republic
700-709	Norway
729	Israel
730-739	Sweden
740	Guatemala
741	El Salvador
742	Honduras
743	Nicaragua
744	Costa Rica
745	Panama
746	Dominican Republic
750	Mexico
754-755	Canada
759	Venezuela
760-769	Switzerland and Liechtenstein
770-771	Colombia
773	Uruguay
775	Peru
777	Bolivia
778-779	Argentina
780	Chile
784	Paraguay
786	Ecuador
789-790	Brazil
800-839	Italy, San Marino, and Vatican City
840-849	Spain and Andorra
850	Cuba
858	Slovakia
859	Czech Republic
860	Serbia
865	Mongolia
867	North Korea
868-869	Turkey
870-879	Netherlands
880	South Korea
884	Cambodia
885	Thailand
888	Singapore
890	India
893	Vietnam
894	Bangladesh
896	Pakistan
899	Indonesia
900-919	Austria
930-939	Australia
940-949	New Zealand
950	GS1 Global Office
951	Global Office (EPCglobal)
955	Malaysia
958	Macau
960-969	Global office (GTIN-8s)
977	Serial publications (ISSN)
978-979	Bookland (ISBN)
980	Refund receipts
981-984	Coupon identification for common currency areas
99	GS1 coupon identification
"""#
}
