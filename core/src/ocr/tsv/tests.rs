//! The TSV reader on Tesseract 5.3's own output, captured with
//! `OMP_THREAD_LIMIT=1 tesseract stdin stdout --psm N tsv < IMAGE` and pasted as written
//! (tabs and all), then on the malformed output a broken or foreign program could give.

use super::*;

/// A 461×1024 settings screen (DejaVu Sans, 12 to 24 px), `--psm 11`.
const SETTINGS: &str = "\
level	page_num	block_num	par_num	line_num	word_num	left	top	width	height	conf	text
1	1	0	0	0	0	0	0	461	1024	-1	
2	1	1	0	0	0	21	44	90	20	-1	
3	1	1	1	0	0	21	44	90	20	-1	
4	1	1	1	1	0	21	44	90	20	-1	
5	1	1	1	1	1	21	44	90	20	92.112862	Settings
2	1	2	0	0	0	20	108	207	12	-1	
3	1	2	1	0	0	20	108	207	12	-1	
4	1	2	1	1	0	20	108	207	12	-1	
5	1	2	1	1	1	20	108	37	12	94.922195	Wi-Fi
5	1	2	1	1	2	69	108	84	12	94.922195	Connected
5	1	2	1	1	3	159	108	15	12	96.429443	to
5	1	2	1	1	4	181	108	46	12	96.647003	Home
2	1	3	0	0	0	21	158	75	12	-1	
3	1	3	1	0	0	21	158	75	12	-1	
4	1	3	1	1	0	21	158	75	12	-1	
5	1	3	1	1	1	21	158	75	12	96.863617	Bluetooth
2	1	4	0	0	0	361	158	24	12	-1	
3	1	4	1	0	0	361	158	24	12	-1	
4	1	4	1	1	0	361	158	24	12	-1	
5	1	4	1	1	1	361	158	24	12	95.469589	Off
2	1	5	0	0	0	21	209	194	14	-1	
3	1	5	1	0	0	21	209	194	14	-1	
4	1	5	1	1	0	21	209	194	14	-1	
5	1	5	1	1	1	21	210	51	13	93.541550	Battery
5	1	5	1	1	2	77	210	39	10	93.306046	82%
5	1	5	1	1	3	110	201	8	28	92.108643	-
5	1	5	1	1	4	121	209	52	11	94.907265	about
5	1	5	1	1	5	166	201	8	28	89.465172	9
5	1	5	1	1	6	179	209	7	11	87.995262	h
5	1	5	1	1	7	192	209	23	11	96.129814	left
2	1	6	0	0	0	21	290	132	13	-1	
3	1	6	1	0	0	21	290	132	13	-1	
4	1	6	1	1	0	21	290	132	13	-1	
5	1	6	1	1	1	21	291	24	9	93.657043	Last
5	1	6	1	1	2	49	290	42	13	96.437332	synced
5	1	6	1	1	3	97	291	34	9	96.425278	10:42
5	1	6	1	1	4	136	291	17	9	96.425278	AM
";

/// A white 461×1024 image: the page row alone, whose text field is empty.
const BLANK: &str = "\
level	page_num	block_num	par_num	line_num	word_num	left	top	width	height	conf	text
1	1	0	0	0	0	0	0	461	1024	-1	
";

/// The same settings screen under `--psm 3`, its last rows: the white-on-blue button and
/// its edge read as words that are a single space at confidence 95, around a real word.
const PSM3_BLANK_WORDS: &str = "\
level	page_num	block_num	par_num	line_num	word_num	left	top	width	height	conf	text
2	1	5	0	0	0	151	917	109	27	-1	
3	1	5	1	0	0	151	917	109	27	-1	
4	1	5	1	1	0	151	917	109	27	-1	
5	1	5	1	1	1	151	917	109	27	95.000000	 
2	1	6	0	0	0	361	158	24	12	-1	
3	1	6	1	0	0	361	158	24	12	-1	
4	1	6	1	1	0	361	158	24	12	-1	
5	1	6	1	1	1	361	158	24	12	95.469589	Off
2	1	7	0	0	0	380	896	66	70	-1	
3	1	7	1	0	0	380	896	66	70	-1	
4	1	7	1	1	0	380	896	66	70	-1	
5	1	7	1	1	1	380	896	66	70	95.000000	 
";

/// Chinese, Arabic and `Ωmega → 5€` on white, `eng` only: what no installed language
/// covers comes back as low-confidence Latin guesses, and `€` as UTF-8.
const UNCOVERED: &str = "\
level	page_num	block_num	par_num	line_num	word_num	left	top	width	height	conf	text
1	1	0	0	0	0	0	0	461	200	-1	
2	1	1	0	0	0	21	27	179	26	-1	
3	1	1	1	0	0	21	27	179	26	-1	
4	1	1	1	1	0	21	27	179	26	-1	
5	1	1	1	1	1	21	27	54	25	66.886757	RE
5	1	1	1	1	2	86	27	52	26	50.158318	WA
5	1	1	1	1	3	147	28	53	25	35.175934	Bs
2	1	2	0	0	0	22	89	204	28	-1	
3	1	2	1	0	0	22	89	204	28	-1	
4	1	2	1	1	0	22	89	204	28	-1	
5	1	2	1	1	1	22	89	78	28	15.238205	este!
5	1	2	1	1	2	114	89	112	28	0.000000	elelde
2	1	3	0	0	0	21	154	137	20	-1	
3	1	3	1	0	0	21	154	137	20	-1	
4	1	3	1	1	0	21	154	137	20	-1	
5	1	3	1	1	1	21	154	77	20	81.156647	Qmega
5	1	3	1	1	2	107	159	16	8	87.579216	>
5	1	3	1	1	3	133	154	25	16	87.579216	5€
";

/// A confidence as the TSV printed it.
fn six(confidence: f32) -> String {
    format!("{confidence:.6}")
}

fn texts(lines: &[TextLine]) -> Vec<&str> {
    lines.iter().map(|l| l.text.as_str()).collect()
}

#[test]
fn a_screen_is_one_line_per_block_paragraph_and_line_in_reading_order() {
    let lines = lines(SETTINGS, 0.0).unwrap();
    assert_eq!(
        texts(&lines),
        [
            "Settings",
            "Wi-Fi Connected to Home",
            "Bluetooth",
            "Off",
            // The lone "-" holds no letter or digit: dropped.
            "Battery 82% about 9 h left",
            "Last synced 10:42 AM",
        ]
    );
    let wifi = &lines[1];
    assert_eq!(wifi.words.len(), 4);
    assert_eq!(wifi.words[1].text, "Connected");
    assert_eq!(wifi.words[1].bounds, Rect::new(69, 108, 153, 120));
    // The union of its words, and the lowest of their confidences.
    assert_eq!(wifi.bounds, Rect::new(20, 108, 227, 120));
    assert_eq!(six(wifi.confidence), "94.922195");
    let battery = &lines[4];
    assert_eq!(battery.bounds, Rect::new(21, 201, 215, 229));
    assert_eq!(six(battery.confidence), "87.995262");
}

#[test]
fn words_under_the_floor_are_dropped_and_the_line_shrinks_to_the_rest() {
    let lines = lines(SETTINGS, 90.0).unwrap();
    let battery = lines
        .iter()
        .find(|l| l.text.starts_with("Battery"))
        .unwrap();
    // "9" (89.47) and "h" (88.00) go ("-" always does); the line's confidence is its
    // lowest kept word.
    assert_eq!(battery.text, "Battery 82% about left");
    assert_eq!(six(battery.confidence), "93.306046");
    assert_eq!(battery.words.len(), 4);
    // Nothing at all passes 97: no line, not an empty one.
    assert!(self::lines(SETTINGS, 97.0).unwrap().is_empty());
}

#[test]
fn blank_and_empty_output_are_no_lines() {
    assert!(lines(BLANK, 0.0).unwrap().is_empty());
    assert!(lines("", 0.0).unwrap().is_empty());
    assert!(lines("\n\n", 0.0).unwrap().is_empty());
    let header_only = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n";
    assert!(lines(header_only, 0.0).unwrap().is_empty());
}

#[test]
fn blank_words_are_dropped_whatever_their_confidence() {
    let lines = lines(PSM3_BLANK_WORDS, 0.0).unwrap();
    assert_eq!(texts(&lines), ["Off"]);
    assert_eq!(lines[0].bounds, Rect::new(361, 158, 385, 170));
}

#[test]
fn text_no_language_covers_is_read_as_guesses_the_floor_removes() {
    let all = lines(UNCOVERED, 0.0).unwrap();
    assert_eq!(texts(&all), ["RE WA Bs", "este! elelde", "Qmega 5€"]);
    // A word at confidence 0 is still a word at floor 0.
    assert_eq!(all[1].confidence, 0.0);
    let kept = lines(UNCOVERED, 60.0).unwrap();
    assert_eq!(texts(&kept), ["RE", "Qmega 5€"]);
}

#[test]
fn a_tab_inside_the_text_field_stays_in_the_word() {
    // Constructed: Tesseract splits words on whitespace, but the text is the last field,
    // so a tab in it must not shift or drop anything.
    let tsv = format!(
        "{}5\t1\t1\t1\t1\t1\t10\t20\t30\t40\t91.5\ta\tb\r\n5\t1\t1\t1\t1\t2\t50\t20\t10\t40\t90,5\t«ü»\n",
        &BLANK[..BLANK.find('\n').unwrap() + 1]
    );
    let lines = lines(&tsv, 0.0).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].words[0].text, "a\tb");
    assert_eq!(lines[0].words[1].text, "«ü»");
    // The decimal comma some locales print.
    assert_eq!(lines[0].words[1].confidence, 90.5);
    assert_eq!(lines[0].bounds, Rect::new(10, 20, 60, 60));
}

#[test]
fn quotes_are_characters_of_words_not_quoting() {
    // Constructed: Tesseract quotes nothing, so a `"` that opens a field and one that
    // closes another are the words' own, and no row is joined to the next.
    let tsv = format!(
        "{}5\t1\t1\t1\t1\t1\t10\t20\t30\t40\t91\t\"Play\n5\t1\t1\t1\t1\t2\t50\t20\t10\t40\t92\tnow\"\n5\t1\t2\t1\t1\t1\t10\t80\t30\t40\t93\t\"\"\"\n",
        &BLANK[..BLANK.find('\n').unwrap() + 1]
    );
    let lines = lines(&tsv, 0.0).unwrap();
    assert_eq!(texts(&lines), ["\"Play now\""]);
    assert_eq!(lines[0].words.len(), 2);
}

#[test]
fn malformed_output_is_bad_output_with_its_line() {
    let header = &BLANK[..BLANK.find('\n').unwrap() + 1];
    let cases = [
        ("<html>not tsv</html>\n".to_string(), 1, "header"),
        (format!("{header}5\t1\t1\t1\t1\t1\t10\t20\n"), 2, "8 fields"),
        (
            format!(
                "{header}1\t1\t0\t0\t0\t0\t0\t0\t4\t4\t-1\t\n5\t1\t1\t1\t1\t1\tx\t2\t3\t4\t90\tw\n"
            ),
            3,
            "left",
        ),
        (
            format!("{header}5\t1\t1\t1\t1\t1\t1\t2\t3\t4\thigh\tw\n"),
            2,
            "confidence",
        ),
        (
            format!("{header}5\t1\t1\t1\t1\t1\t1\t2\t3\t4\tNaN\tw\n"),
            2,
            "confidence",
        ),
    ];
    for (tsv, at, says) in cases {
        match lines(&tsv, 0.0) {
            Err(OcrError::BadOutput { line, message }) => {
                assert_eq!(line, at, "{message}");
                assert!(message.contains(says), "{message}");
            }
            other => panic!("{tsv:?} gave {other:?}"),
        }
    }
}
