//! The names `\p{…}` accepts in Go's regexp/syntax (`unicodeTable`), which changed in Go 1.25:
//! before, exact keys of `unicode.Categories` and `unicode.Scripts` and `Any`; from 1.25 on,
//! names are first canonicalized (`canonicalName`: case and `_`, `-`, space ignored), `Assigned`,
//! `ASCII` and the long category aliases (`unicode.CategoryAliases`) are added, and `Cn` and `LC`
//! join the categories. The tables are Go's for Unicode 15.0.0 (Go 1.21 to 1.26).

/// Which Go's lookup of `\p{…}` names applies (the server's Go release).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnicodeNames {
    /// Go 1.22 to 1.24 (Kubernetes 1.30 to 1.34): exact names.
    Exact,
    /// Go 1.25 and 1.26 (Kubernetes 1.35 to 1.37): canonicalized names and aliases.
    Canonical,
}

impl UnicodeNames {
    /// Whether `unicodeTable(name)` finds a table.
    pub fn exists(self, name: &str) -> bool {
        match self {
            UnicodeNames::Exact => {
                name == "Any"
                    || (CATEGORIES.contains(&name) && name != "Cn" && name != "LC")
                    || SCRIPTS.contains(&name)
            }
            UnicodeNames::Canonical => {
                let name = canonical_name(name);
                ["Any", "Assigned", "Ascii", "Lc"].contains(&name.as_str())
                    || CATEGORIES.contains(&name.as_str())
                    || SCRIPTS.contains(&name.as_str())
                    || CATEGORY_ALIASES
                        .iter()
                        .any(|(alias, _)| canonical_name(alias) == name)
            }
        }
    }
}

/// `canonicalName`: the first letter upper case, the others lower case, without `_`, `-` and
/// spaces (bytes beyond ASCII are kept).
fn canonical_name(name: &str) -> String {
    let mut out = Vec::with_capacity(name.len());
    let mut first = true;
    for &c in name.as_bytes() {
        if matches!(c, b'_' | b'-' | b' ') {
            continue;
        }
        out.push(if first {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        });
        first = false;
    }
    String::from_utf8(out).expect("only ASCII bytes change")
}

/// `unicode.Categories` of Go 1.25 and 1.26 (before, without `Cn` and `LC`).
const CATEGORIES: &[&str] = &[
    "C", "Cc", "Cf", "Cn", "Co", "Cs", "L", "LC", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me",
    "Mn", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk",
    "Sm", "So", "Z", "Zl", "Zp", "Zs",
];
/// `unicode.Scripts` (Unicode 15.0.0).
const SCRIPTS: &[&str] = &[
    "Adlam",
    "Ahom",
    "Anatolian_Hieroglyphs",
    "Arabic",
    "Armenian",
    "Avestan",
    "Balinese",
    "Bamum",
    "Bassa_Vah",
    "Batak",
    "Bengali",
    "Bhaiksuki",
    "Bopomofo",
    "Brahmi",
    "Braille",
    "Buginese",
    "Buhid",
    "Canadian_Aboriginal",
    "Carian",
    "Caucasian_Albanian",
    "Chakma",
    "Cham",
    "Cherokee",
    "Chorasmian",
    "Common",
    "Coptic",
    "Cuneiform",
    "Cypriot",
    "Cypro_Minoan",
    "Cyrillic",
    "Deseret",
    "Devanagari",
    "Dives_Akuru",
    "Dogra",
    "Duployan",
    "Egyptian_Hieroglyphs",
    "Elbasan",
    "Elymaic",
    "Ethiopic",
    "Georgian",
    "Glagolitic",
    "Gothic",
    "Grantha",
    "Greek",
    "Gujarati",
    "Gunjala_Gondi",
    "Gurmukhi",
    "Han",
    "Hangul",
    "Hanifi_Rohingya",
    "Hanunoo",
    "Hatran",
    "Hebrew",
    "Hiragana",
    "Imperial_Aramaic",
    "Inherited",
    "Inscriptional_Pahlavi",
    "Inscriptional_Parthian",
    "Javanese",
    "Kaithi",
    "Kannada",
    "Katakana",
    "Kawi",
    "Kayah_Li",
    "Kharoshthi",
    "Khitan_Small_Script",
    "Khmer",
    "Khojki",
    "Khudawadi",
    "Lao",
    "Latin",
    "Lepcha",
    "Limbu",
    "Linear_A",
    "Linear_B",
    "Lisu",
    "Lycian",
    "Lydian",
    "Mahajani",
    "Makasar",
    "Malayalam",
    "Mandaic",
    "Manichaean",
    "Marchen",
    "Masaram_Gondi",
    "Medefaidrin",
    "Meetei_Mayek",
    "Mende_Kikakui",
    "Meroitic_Cursive",
    "Meroitic_Hieroglyphs",
    "Miao",
    "Modi",
    "Mongolian",
    "Mro",
    "Multani",
    "Myanmar",
    "Nabataean",
    "Nag_Mundari",
    "Nandinagari",
    "New_Tai_Lue",
    "Newa",
    "Nko",
    "Nushu",
    "Nyiakeng_Puachue_Hmong",
    "Ogham",
    "Ol_Chiki",
    "Old_Hungarian",
    "Old_Italic",
    "Old_North_Arabian",
    "Old_Permic",
    "Old_Persian",
    "Old_Sogdian",
    "Old_South_Arabian",
    "Old_Turkic",
    "Old_Uyghur",
    "Oriya",
    "Osage",
    "Osmanya",
    "Pahawh_Hmong",
    "Palmyrene",
    "Pau_Cin_Hau",
    "Phags_Pa",
    "Phoenician",
    "Psalter_Pahlavi",
    "Rejang",
    "Runic",
    "Samaritan",
    "Saurashtra",
    "Sharada",
    "Shavian",
    "Siddham",
    "SignWriting",
    "Sinhala",
    "Sogdian",
    "Sora_Sompeng",
    "Soyombo",
    "Sundanese",
    "Syloti_Nagri",
    "Syriac",
    "Tagalog",
    "Tagbanwa",
    "Tai_Le",
    "Tai_Tham",
    "Tai_Viet",
    "Takri",
    "Tamil",
    "Tangsa",
    "Tangut",
    "Telugu",
    "Thaana",
    "Thai",
    "Tibetan",
    "Tifinagh",
    "Tirhuta",
    "Toto",
    "Ugaritic",
    "Vai",
    "Vithkuqi",
    "Wancho",
    "Warang_Citi",
    "Yezidi",
    "Yi",
    "Zanabazar_Square",
];
/// `unicode.CategoryAliases` (Go 1.25 on): alias and category.
const CATEGORY_ALIASES: &[(&str, &str)] = &[
    ("Cased_Letter", "LC"),
    ("Close_Punctuation", "Pe"),
    ("Combining_Mark", "M"),
    ("Connector_Punctuation", "Pc"),
    ("Control", "Cc"),
    ("Currency_Symbol", "Sc"),
    ("Dash_Punctuation", "Pd"),
    ("Decimal_Number", "Nd"),
    ("Enclosing_Mark", "Me"),
    ("Final_Punctuation", "Pf"),
    ("Format", "Cf"),
    ("Initial_Punctuation", "Pi"),
    ("Letter", "L"),
    ("Letter_Number", "Nl"),
    ("Line_Separator", "Zl"),
    ("Lowercase_Letter", "Ll"),
    ("Mark", "M"),
    ("Math_Symbol", "Sm"),
    ("Modifier_Letter", "Lm"),
    ("Modifier_Symbol", "Sk"),
    ("Nonspacing_Mark", "Mn"),
    ("Number", "N"),
    ("Open_Punctuation", "Ps"),
    ("Other", "C"),
    ("Other_Letter", "Lo"),
    ("Other_Number", "No"),
    ("Other_Punctuation", "Po"),
    ("Other_Symbol", "So"),
    ("Paragraph_Separator", "Zp"),
    ("Private_Use", "Co"),
    ("Punctuation", "P"),
    ("Separator", "Z"),
    ("Space_Separator", "Zs"),
    ("Spacing_Mark", "Mc"),
    ("Surrogate", "Cs"),
    ("Symbol", "S"),
    ("Titlecase_Letter", "Lt"),
    ("Unassigned", "Cn"),
    ("Uppercase_Letter", "Lu"),
    ("cntrl", "Cc"),
    ("digit", "Nd"),
    ("punct", "P"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names() {
        assert_eq!(canonical_name("old_italic"), "Olditalic");
        assert_eq!(canonical_name("L"), "L");
        assert_eq!(canonical_name("Lowercase-Letter"), "Lowercaseletter");
        assert!(UnicodeNames::Canonical.exists("lowercase_letter"));
        assert!(!UnicodeNames::Exact.exists("lowercase_letter"));
        assert!(UnicodeNames::Exact.exists("Old_Italic"));
        assert!(!UnicodeNames::Canonical.exists("Old_Italic"));
    }
}
