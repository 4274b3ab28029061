//! Chinese, Japanese and Korean: street addresses, personal names beside their cue, phone
//! numbers, dates, and the numbers that follow a cue (customer, employee, patient,
//! passport, insurance, plate). The multilingual model finds names, places and
//! organisations in running text; these rules add what has a form or a cue. Words are
//! not separated by spaces here, so context words cannot be found as whole
//! words (`context.rs`): each pattern's regex carries its own cue, and a name is taken
//! only beside one (a cue such as 我叫 or 姓名：, or an honorific such as 先生, さん, 씨)
//! and only when it opens with a common surname (Chinese, Korean) or is no kinship or
//! role word (Japanese, whose names have no closed surname list).

use crate::engine::validators::{apac, structure};
use crate::engine::PatternSpec;
use crate::text::{is_han, ByteSpan};

/// Characters that never begin a Chinese place name but often stand right before one
/// ("他住在北京市…", "地址是…"): a place name's run of Han characters may not take them in.
macro_rules! zh_place {
    () => {
        r"[\p{Han}--[住在于是的到址我他她你们送寄家为从请]]"
    };
}

/// Chinese street addresses: province, city and district when given, then the road and
/// its number (`北京市朝阳区建国路88号`, `上海市浦东新区世纪大道100号2单元301室`). The
/// number with 号 after a road, street or lane word is the grammar's anchor.
pub(super) const STREET_ADDRESS_ZH: PatternSpec = PatternSpec {
    name: "street_address_zh",
    label: "ADDRESS",
    prefilter: Some(r"[0-9]号"),
    regex: concat!(
        r"(?x)(?:",
        zh_place!(),
        r"{2,7}(?:省|自治区))?(?:",
        zh_place!(),
        r"{1,6}市)?(?:",
        zh_place!(),
        r"{1,6}(?:区|县|镇|乡))?",
        zh_place!(),
        r"{1,10}(?:路|街|大道|道|巷|胡同)[0-9]{1,5}号
        (?:院|楼)?(?:[0-9]{1,3}(?:号楼|栋|幢|座))?(?:[0-9]{1,3}单元)?(?:[0-9]{1,5}(?:室|房))?"
    ),
    score: 0.8,
    negative_context: &[],
    examples: &[
        (
            "陈静薇住在北京市朝阳区建国路88号。",
            "北京市朝阳区建国路88号",
        ),
        (
            "地址：上海市浦东新区世纪大道100号2单元301室",
            "上海市浦东新区世纪大道100号2单元301室",
        ),
    ],
    counter_examples: &["第3号文件", "88号"],
    ..PatternSpec::BASE
};

/// Japanese addresses: the postcode after 〒 when given, prefecture, city or ward, town,
/// then block numbers in 丁目/番/号 or with hyphens (`〒100-0001 東京都千代田区千代田1-1`,
/// `大阪府大阪市北区梅田3丁目1番1号`).
pub(super) const STREET_ADDRESS_JA: PatternSpec = PatternSpec {
    name: "street_address_ja",
    label: "ADDRESS",
    prefilter: Some(r"(?:東京都|北海道|京都府|大阪府|県)"),
    regex: r"(?x)
        (?:〒\s?[0-9０-９]{3}[\-－][0-9０-９]{4}\s*)?
        (?:東京都|北海道|京都府|大阪府|\p{Han}{2,3}県)
        [\p{Han}\p{Katakana}\p{Hiragana}]{1,8}?(?:市|区|町|村|郡)
        [\p{Han}\p{Katakana}\p{Hiragana}]{0,10}?
        [0-9０-９]{1,4}(?:丁目|[\-－‐−])
        [0-9０-９]{1,4}(?:番地?|[\-－‐−])?
        (?:[0-9０-９]{1,4}号?)?",
    score: 0.8,
    negative_context: &[],
    examples: &[
        (
            "住所は東京都千代田区千代田1-1です。",
            "東京都千代田区千代田1-1",
        ),
        (
            "大阪府大阪市北区梅田3丁目1番1号",
            "大阪府大阪市北区梅田3丁目1番1号",
        ),
        (
            "〒100-0001 東京都千代田区千代田1-1 山田太郎様",
            "〒100-0001 東京都千代田区千代田1-1",
        ),
    ],
    counter_examples: &["東京都の人口は1400万人です。"],
    ..PatternSpec::BASE
};

/// Korean road-name addresses: province or city when given, the district (구, 군 or 시),
/// then the road (로, 길) and its number (`서울특별시 강남구 테헤란로 123`, `부산 해운대구
/// 센텀중앙로 79`). The district is required: 로 alone is also the particle "by, to"
/// ("버스로 3시간").
pub(super) const STREET_ADDRESS_KO: PatternSpec = PatternSpec {
    name: "street_address_ko",
    label: "ADDRESS",
    prefilter: Some(r"(?:구|군|시)\s"),
    regex: r"(?x)
        (?:\p{Hangul}{2,6}(?:특별시|광역시|특별자치시|특별자치도|도|시)?\s+)?
        \p{Hangul}{1,6}(?:구|군|시)\s+
        \p{Hangul}{1,12}(?:[0-9]{1,3}번?)?(?:로|길)(?:\s?[0-9]{1,3}번?길)?
        \s?[0-9]{1,4}(?:-[0-9]{1,4})?\b",
    score: 0.8,
    negative_context: &[],
    examples: &[
        (
            "주소: 서울특별시 강남구 테헤란로 123, 5층",
            "서울특별시 강남구 테헤란로 123",
        ),
        ("부산 해운대구 센텀중앙로 79", "부산 해운대구 센텀중앙로 79"),
    ],
    counter_examples: &["버스로 3시간 걸려요", "서울시 인구는 900만 명"],
    ..PatternSpec::BASE
};

/// Common Chinese surnames (the hundred most frequent less those that are everyday
/// function words: 于, 向, 任, 万, 付) and the compound ones, as one group for `concat!`.
macro_rules! zh_surname {
    () => {
        r"(?:欧阳|司马|诸葛|上官|司徒|[王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁沈姚卢姜崔钟谭陆汪范金石廖贾夏韦方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵钱严覃武戴莫孔汤])"
    };
}

/// The cues of a Chinese name, each one home for its pattern and its prefilter: the
/// phrases that say a name ("我叫"), the form fields before one ("姓名："), and the
/// honorifics after one ("先生").
macro_rules! zh_name_said {
    () => {
        r"(?:我叫|名叫|叫做|名字是)"
    };
}
macro_rules! zh_name_field {
    () => {
        r"(?:姓名|联系人|收件人|收货人|患者|病人|客户|申请人|负责人|经办人|签名)"
    };
}
macro_rules! zh_honorific {
    () => {
        r"(?:先生|女士|小姐|老师|医生|教授|律师|经理|同学)"
    };
}

/// A character of a Chinese given name: any Han character but the function words and
/// the first characters of the words that follow names (先生, 女士, 电话, 手机, 今年, 住在),
/// so that a name stops before them.
macro_rules! zh_given {
    () => {
        r"[\p{Han}--[的是在了和与及或我你他她们先女电手今住叫名姓]]"
    };
}

/// Chinese names beside their cue: after 我叫, 名叫, 姓名：, 联系人：, 患者：, … (the name,
/// then punctuation or a word that follows names), before an honorific (王先生, 李老师,
/// 张医生), or in brackets after the romanised name (`Zhang Wei (张伟)`). The honorific
/// form takes the surname alone too, as "Mr Wang" does.
pub(super) const PERSON_ZH: PatternSpec = PatternSpec {
    name: "person_zh",
    label: "PERSON",
    prefilter: Some(concat!(
        zh_name_said!(),
        "|",
        zh_name_field!(),
        "|",
        zh_honorific!(),
        "|[(（]",
        zh_surname!()
    )),
    regex: concat!(
        r"(?x)(?:",
        zh_name_said!(),
        r"\s* | ",
        zh_name_field!(),
        r"\s* [:：] \s* ) (",
        zh_surname!(),
        zh_given!(),
        r"{1,2})
        (?: [\s，,。.!！?？:：;；、)）] | $ | 电话 | 手机 | 的 | 今年 | 住 | 在 | 是 | 先生 | 女士 )
      | (",
        zh_surname!(),
        zh_given!(),
        r"{0,2})",
        zh_honorific!(),
        // in brackets after its romanisation: Zhang Wei (张伟)
        r"| [A-Za-z]\s?[(（] (",
        zh_surname!(),
        zh_given!(),
        r"{1,2}) [)）]"
    ),
    group: 1,
    score: 0.75,
    negative_context: &[],
    examples: &[
        ("我叫王小明，今年30岁，住在上海。", "王小明"),
        ("联系人：张三电话13812345678", "张三"),
        ("请转告李老师明天上课。", "李"),
        ("患者：陈静薇，女，45岁。", "陈静薇"),
        ("欧阳娜娜女士您好", "欧阳娜娜"),
        ("Contact: Zhang Wei (张伟), WeChat", "张伟"),
    ],
    counter_examples: &[
        "我是高中生。",
        "他是一位好老师。",
        "患者高血压",
        "谢谢你",
        "地方政府",
    ],
    ..PatternSpec::BASE
};

/// Words that stand where a Japanese name would, before さん or 様: kinship, roles,
/// "everyone", "customer", "god" (お母さん, 皆様, お客様, 神様, 店長さん, ユーザー様), and the
/// first kanji of words written with 様 (同様, 多様, 仕様, 模様).
#[rustfmt::skip]
const NOT_JA_NAMES: &[&str] = &[
    "皆", "客", "母", "父", "兄", "姉", "弟", "妹", "奥", "神", "娘", "息子", "旦那",
    "主人", "彼", "彼女", "誰", "患者", "担当", "担当者", "店員", "社員", "職員", "医者",
    "王", "殿", "赤", "子", "親", "祖父", "祖母", "叔父", "叔母", "伯父", "伯母", "隣",
    "大家", "管理人", "運転手", "看護師", "部長", "課長", "社長", "係長", "店長", "院長",
    "会長", "議長", "監督", "選手", "嬢", "家族", "猫", "犬", "孫", "様", "方", "ママ",
    "パパ", "ユーザー", "オーナー", "ゲスト", "スタッフ", "メンバー", "ドライバー",
    "パート", "アルバイト", "お客", "先生", "皆様",
    // words written with 様 ("similarly", "various", "specification", "pattern", …)
    "同", "多", "仕", "模", "異", "一", "左", "貴", "有", "無", "文", "紋", "図", "今",
];

/// The honorifics after a Japanese name, for the pattern and its prefilter.
macro_rules! ja_honorific {
    () => {
        r"(?:さん|様|さま|氏|先生|くん|ちゃん)"
    };
}

/// Japanese names before an honorific: 田中さん, 山田太郎様, 鈴木先生, マイクさん. Japanese
/// names have no closed surname list, so any run of kanji (or of katakana, for foreign
/// names) before さん, 様, 氏, 先生, くん or ちゃん counts, unless it is a kinship or role
/// word (`NOT_JA_NAMES`). Kanji written right before the name join it ("明日田中さん"):
/// without a dictionary there is no telling where the name starts, and the privacy-safe
/// error is to take too much.
pub(super) const PERSON_JA: PatternSpec = PatternSpec {
    name: "person_ja",
    label: "PERSON",
    prefilter: Some(ja_honorific!()),
    regex: concat!(
        r"(?x)( \p{Han}{1,4} (?:[\ 　]?\p{Han}{1,3})? | [\p{Katakana}ー]{2,8} )",
        ja_honorific!()
    ),
    group: 1,
    score: 0.75,
    validate: Some(ja_name),
    surroundings: Some(ja_honorific_is_no_word),
    negative_context: &[],
    examples: &[
        ("田中さんは明日来ます。", "田中"),
        ("山田太郎様、ご注文ありがとうございます。", "山田太郎"),
        ("マイクさんに聞いて", "マイク"),
        ("鈴木先生の授業", "鈴木"),
    ],
    counter_examples: &[
        "皆さん、お客様、お母さんへ。",
        "神様、お願い",
        "店長さんに伝えます",
        "同様に、仕様書の模様を確認",
        "申込者氏名を記入",
    ],
    ..PatternSpec::BASE
};

/// A Japanese name that its bearer gives: 山田太郎と申します, 田中といいます ("I am called
/// …"), 名前は山田太郎です ("my name is …"). Only these naming words: "私は学生です" ("I am a
/// student") has the shape of a name before です.
pub(super) const PERSON_JA_NAMED: PatternSpec = PatternSpec {
    name: "person_ja_named",
    prefilter: Some(r"と申します|といいます|名前は"),
    regex: r"(?x)
        ( \p{Han}{1,4} (?:[\ 　]?\p{Han}{1,3})? | [\p{Katakana}ー]{2,8} ) (?:と申します|といいます)
      | 名前は ( \p{Han}{1,4} (?:[\ 　]?\p{Han}{1,3})? | [\p{Katakana}ー]{2,8} ) です",
    surroundings: None,
    examples: &[
        ("こんにちは、山田太郎と申します。", "山田太郎"),
        ("私の名前は鈴木花子です。", "鈴木花子"),
        ("マイクといいます", "マイク"),
    ],
    counter_examples: &["私は学生です。", "こんにちは、山田太郎です。"],
    ..PERSON_JA
};

fn ja_name(s: &str) -> bool {
    !NOT_JA_NAMES.contains(&s)
}

/// The honorific after the name is no word of its own: 氏名 ("full name", as in 申込者氏名),
/// 様子 ("look"), 様々 ("various").
fn ja_honorific_is_no_word(text: &str, span: ByteSpan) -> bool {
    let after = &text[span.end..];
    !["氏名", "様子", "様々"]
        .iter()
        .any(|w| after.starts_with(w))
}

/// Common Korean surnames: a character class body.
macro_rules! ko_surname {
    () => {
        r"[김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄변채원천방공현함염여추도소석선설마길연위표명기반라왕금옥육인맹제모탁국어은편용예경봉]"
    };
}

/// Words before 님 or 씨 that open with a surname's syllable but are roles: 고객님
/// (customer), 간호사님 (nurse), 선생님, 사장님, 교수님, 회원님, 부모님, 하나님.
#[rustfmt::skip]
const NOT_KO_NAMES: &[&str] = &[
    "고객", "간호사", "선생", "사장", "교수", "회원", "부모", "하나", "기사", "원장",
    "회장", "부장", "과장", "차장", "대리", "이사", "대표", "실장", "소장", "반장", "총장",
    "주인", "환자", "의사", "박사", "작가", "감독", "선수", "공주", "왕자", "손님", "형님",
    "장모", "장인", "이모", "고모", "삼촌", "사모", "동생", "선배", "후배", "여러분",
    "수박",
    // people by what they do here, as customer messages address them (이용자님)
    "이용자", "구매자", "신청자", "지원자", "주문자", "예약자", "구독자", "방문자",
    "소비자", "신청인", "민원인", "이용객", "여행객", "고양이", "강아지",
];

/// The words before a Korean name ("이름") and the honorifics after one ("씨"), for the
/// pattern and its prefilter.
macro_rules! ko_name_cue {
    () => {
        r"(?:이름|성함|성명)"
    };
}
macro_rules! ko_honorific {
    () => {
        r"(?:씨|님)"
    };
}

/// Korean names: after 이름, 성함 or 성명 (with or without a colon), or before 씨 or 님
/// (홍길동 씨, 김민수님). Two to four syllables opening with a common surname, not a role
/// word (`NOT_KO_NAMES`).
pub(super) const PERSON_KO: PatternSpec = PatternSpec {
    name: "person_ko",
    label: "PERSON",
    prefilter: Some(concat!(ko_name_cue!(), "|", ko_honorific!())),
    regex: concat!(
        r"(?x)",
        ko_name_cue!(),
        r"(?:은|는|이|:|：)? \s* (",
        ko_surname!(),
        r"\p{Hangul}{1,3}) (?:[\s,.。]|$|입니다|이에요|예요|이고|님|씨)
      | (",
        ko_surname!(),
        r"\p{Hangul}{1,3}) \s?",
        ko_honorific!()
    ),
    group: 1,
    score: 0.75,
    validate: Some(ko_name),
    negative_context: &[],
    examples: &[
        ("홍길동 씨는 서울에 삽니다.", "홍길동"),
        ("고객님, 이름: 김민수", "김민수"),
        ("제 성함은 박지성입니다", "박지성"),
        ("이서연님 안녕하세요", "이서연"),
    ],
    counter_examples: &[
        "고객님 안녕하세요",
        "선생님께 여쭤보세요",
        "하나님의 은혜",
        "아저씨",
        "이용자님, 구매자님께 안내드립니다",
    ],
    ..PatternSpec::BASE
};

fn ko_name(s: &str) -> bool {
    !NOT_KO_NAMES.contains(&s)
}

/// The words before a Chinese phone number, in simplified and traditional script, for the
/// patterns and their prefilters.
macro_rules! zh_phone_cue {
    () => {
        r"(?:手机|手機|电话|電話|联系|聯絡|聯繫|致电|致電|来电|來電|拨打|撥打|微信|座机|座機|传真|傳真)"
    };
}

/// Chinese mobile numbers after their cue: `手机：13812345678`, `电话 138-1234-5678`,
/// `微信15912345678`. Eleven digits from 13 to 19; without a cue an eleven-digit number
/// is as often an id or a count, so the regex requires one (context words are not found
/// inside Chinese text, which has no spaces).
pub(super) const PHONE_CN: PatternSpec = PatternSpec {
    name: "phone_cn",
    label: "PHONE_NUMBER",
    prefilter: Some(zh_phone_cue!()),
    regex: concat!(
        r"(?x)",
        zh_phone_cue!(),
        r"[^0-9\n]{0,6}? (1[3-9][0-9](?:[0-9]{8}|[\ \-][0-9]{4}[\ \-][0-9]{4}))\b"
    ),
    group: 1,
    score: 0.8,
    negative_context: &[],
    examples: &[
        ("联系人：张三电话13812345678", "13812345678"),
        ("手机号码：159-1234-5678。", "159-1234-5678"),
        ("请致电 186 0000 1234", "186 0000 1234"),
        ("聯絡手機：13705526614", "13705526614"),
    ],
    counter_examples: &["订单号13812345678", "手机型号 12345678901"],
    ..PatternSpec::BASE
};

/// The cues of a phone number with a trunk 0 in Chinese, Japanese and Korean: 电话, 電話,
/// 座机, 传真; 電話番号, 携帯, 連絡先; 전화번호, 휴대폰, 연락처. Also the prefilter of
/// [`PHONE_CJK_TRUNK`].
macro_rules! cjk_trunk_phone_cue {
    () => {
        concat!(
            zh_phone_cue!(),
            r"|(?:電話番号|携帯番号|携帯|連絡先|전화번호|전화|휴대폰|핸드폰|연락처)"
        )
    };
}

/// Numbers with a trunk 0 after their cue in Chinese, Japanese or Korean: a landline
/// (`电话：021-5876 2234`, `電話 03-1234-5678`, `(02) 2712-3456` in Taipei), a Japanese or
/// Korean mobile (`電話番号は090-1234-5678`, `연락처 010-1234-5678`) or a Taiwanese one
/// (`0912-345-678`), in dashed or spaced groups or run together. No national layout fits
/// them all, so the cue is required; context words are not found inside text without
/// spaces, as for [`PHONE_CN`].
pub(super) const PHONE_CJK_TRUNK: PatternSpec = PatternSpec {
    name: "phone_cjk_trunk",
    label: "PHONE_NUMBER",
    prefilter: Some(cjk_trunk_phone_cue!()),
    regex: concat!(
        r"(?x)(?:",
        cjk_trunk_phone_cue!(),
        r")[^0-9\n]{0,4}?
        ( \(0[0-9]{1,3}\)\ ?[0-9]{3,4}[\ \-][0-9]{4}
        | 0[0-9]{1,4}[\ \-][0-9]{2,4}[\ \-][0-9]{3,4}
        | 0[0-9]{9,10} )\b"
    ),
    group: 1,
    score: 0.8,
    validate: Some(structure::phone),
    negative_context: &[],
    examples: &[
        ("電話番号は090-1234-5678、住所は", "090-1234-5678"),
        ("携帯：080 1234 5678", "080 1234 5678"),
        ("연락처 010-1234-5678 입니다", "010-1234-5678"),
        ("電話 03-1234-5678", "03-1234-5678"),
        ("联系电话：021-5876 2234", "021-5876 2234"),
        ("聯絡電話：0912-345-678", "0912-345-678"),
        ("電話：(02) 2712-3456", "(02) 2712-3456"),
    ],
    // A mobile's 3-4-4 grouping needs no cue ([`PHONE_CJK_MOBILE`]); a landline's does.
    counter_examples: &["注文番号03-1234-5678", "電話 12345", "电话 2025-03-18"],
    ..PatternSpec::BASE
};

/// Mobile numbers of China, Korea and Japan in their own grouping, with no cue: a Chinese
/// mobile (`1[3-9]x`) and a Korean one (`010`; before 2004 also `011`, `016` to `019`) in
/// 3-4-4 groups, a Japanese one (`070`, `080`, `090`) in 3-4-4 groups. Each country's
/// numbering plan gives these prefixes to mobiles only, and dates, versions and amounts
/// are not grouped so, so no cue is needed (a bare run of eleven digits is as often an
/// id, and [`PHONE_CN`] wants its cue). Word boundaries do not work beside Han or Hangul
/// (both are word characters), so the number's edges are spelled out.
pub(super) const PHONE_CJK_MOBILE: PatternSpec = PatternSpec {
    name: "phone_cjk_mobile",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        (?:^|[^0-9A-Za-z.+\-])
        ( 1[3-9][0-9][\ \-][0-9]{4}[\ \-][0-9]{4}
        | 01[016-9][\ \-][0-9]{3,4}[\ \-][0-9]{4}
        | 0[789]0[\ \-][0-9]{4}[\ \-][0-9]{4} )
        (?:$|[^0-9A-Za-z\-])",
    group: 1,
    score: 0.6,
    validate: Some(structure::phone),
    examples: &[
        ("有问题请联系138-1234-5678。", "138-1234-5678"),
        ("민지 010-7731-0452로 연락 주세요", "010-7731-0452"),
        ("携帯は090-6612-3380です", "090-6612-3380"),
        ("phone 139 1234 5678", "139 1234 5678"),
    ],
    counter_examples: &[
        "138-1234-56789",
        "SKU-010-1234-5678",
        "v2.090-1234-5678",
        "2024-0311-2345",
        "13812345678",
    ],
    ..PatternSpec::BASE
};

/// A Chinese mobile number written bare inside Chinese text, as it mostly is (`有事打我
/// 13705526614`, `收件人王伟13705526614，`): eleven digits on a mobile prefix of the
/// national plan, with a Han letter or a full-width mark right beside it. Out of Chinese
/// text a bare eleven-digit run is as often an id or a count, and inside it a number
/// named by 号, 码 or 单 just before it (订单号, 编号, 单号) is that, so those stay.
pub(super) const PHONE_CN_IN_TEXT: PatternSpec = PatternSpec {
    name: "phone_cn_in_text",
    label: "PHONE_NUMBER",
    regex: r"(?x)
        (?:^|[^0-9A-Za-z.+\-_/=\#])
        ( 1(?:3[0-9]|4[5-9]|5[0-35-9]|6[2567]|7[0-8]|8[0-9]|9[0-35-9])[0-9]{8} )
        (?:$|[^0-9A-Za-z\-])",
    group: 1,
    score: 0.6,
    validate: Some(structure::phone),
    surroundings: Some(inside_chinese_text),
    examples: &[
        ("有事打我13705526614，周末也行", "13705526614"),
        ("收件人王伟 15820337419。", "15820337419"),
        ("我的电话号码是13011112222", "13011112222"),
    ],
    counter_examples: &[
        "13812345678",
        "订单号13812345678已发货",
        "编号：13812345678",
        "id 13812345678 ok",
        "快递单13812345678",
    ],
    ..PatternSpec::BASE
};

/// A Han letter or a full-width mark next to the number: before it (spaces and a colon
/// between allowed) or right after it; but no id's name right before it (号, 码, 单 of
/// 订单号, 编号：, 快递单).
fn inside_chinese_text(text: &str, span: ByteSpan) -> bool {
    let chinese = |c: char| is_han(c) || "，。：；、（）！？".contains(c);
    let before = text[..span.start]
        .trim_end_matches([' ', '：'])
        .chars()
        .next_back();
    let after = text[span.end..].trim_start_matches(' ').chars().next();
    !before.is_some_and(|c| "号码单號碼單".contains(c))
        && (before.is_some_and(chinese) || after.is_some_and(chinese))
}

/// The value after a Chinese, Japanese or Korean identifier cue: an optional full-width or
/// ASCII colon, `是`, `为`, `は`, `는`/`은`, then letters and digits with inner dashes, at
/// least four digits (`VIP00387215`, `K-0038821`). The edges are spelled out: word
/// boundaries do not work beside Han or Hangul.
macro_rules! cjk_cued_value {
    () => {
        r"[\ \t]*(?:[:：\#]|是|为|為|は|는|은)?[\ \t]*((?-i:[A-Z]{0,4})-?[0-9][0-9A-Z\-]{2,18}[0-9A-Z])(?:$|[^0-9A-Za-z\-])"
    };
}

/// A member's, customer's or client's number after its cue in Chinese, Japanese or Korean
/// (`会员号VIP00387215`, `お客様番号：K-0038821`, `고객번호 M00728154`): the
/// [`super::cued::CUSTOMER_NUMBER`] of text without spaces.
pub(super) const CUSTOMER_NUMBER_CJK: PatternSpec = PatternSpec {
    name: "customer_number_cjk",
    label: "ACCOUNT_NUMBER",
    regex: concat!(
        r"(?:会员号|会员卡号|会员编号|會員編號|會員號|客户编号|客户号|客戶編號|顧客番号|お客様番号|会員番号|会員ID|顧客ID|고객번호|회원번호|고객 ?ID|회원 ?ID)",
        cjk_cued_value!()
    ),
    examples: &[
        ("会员号VIP00387215，积分已到账", "VIP00387215"),
        ("お客様番号：K-0038821", "K-0038821"),
        ("고객번호 M00728154 확인 부탁드립니다", "M00728154"),
    ],
    counter_examples: &["会员号码请妥善保管", "고객번호 12", "会員番号は2024年"],
    ..super::cued::CUED_NUMBER
};

/// An employee's number after its cue in Chinese, Japanese or Korean (`工号：HS0092837`,
/// `社員番号 U00918273`, `사번 2081734`): the [`super::cued::EMPLOYEE_ID`] of text without
/// spaces.
pub(super) const EMPLOYEE_ID_CJK: PatternSpec = PatternSpec {
    name: "employee_id_cjk",
    label: "EMPLOYEE_ID",
    regex: concat!(
        r"(?:工号|員工編號|员工编号|职工号|員工號|社員番号|従業員番号|社員ID|社員コード|사번|사원번호|직원번호)",
        cjk_cued_value!()
    ),
    examples: &[
        ("工号：HS0092837，入职", "HS0092837"),
        ("社員番号 U00918273 の", "U00918273"),
        ("사번 2081734 김", "2081734"),
    ],
    counter_examples: &["工号牌", "사번 12"],
    ..super::cued::CUED_NUMBER
};

/// A patient's record number after its cue in Chinese, Japanese or Korean (`病历号
/// ZY20250311047`, `カルテ番号：TK1234567`, `환자번호 C2025081900731`): the medical record
/// number of text without spaces.
pub(super) const MEDICAL_RECORD_CJK: PatternSpec = PatternSpec {
    name: "medical_record_cjk",
    label: "MEDICAL_RECORD_NUMBER",
    regex: concat!(
        r"(?:病历号|病歷號|病案号|住院号|门诊号|門診號|患者ID|患者番号|カルテ番号|診察券番号|환자번호|병록번호|진료번호)",
        cjk_cued_value!()
    ),
    examples: &[
        ("病历号ZY20250311047，诊断", "ZY20250311047"),
        ("カルテ番号：TK1234567", "TK1234567"),
        ("환자번호 C2025081900731 입원", "C2025081900731"),
    ],
    counter_examples: &["病历号码未填写", "환자번호 12"],
    ..super::cued::CUED_NUMBER
};

/// A passport's number after its cue in Chinese, Japanese or Korean (`护照号码：E40218836`,
/// `旅券番号 TZ7720418`, `護照號碼：312048871`): the [`super::cued::PASSPORT_NUMBER`] of text
/// without spaces, a guess under a country's own pattern as that one is.
pub(super) const PASSPORT_CJK: PatternSpec = PatternSpec {
    name: "passport_cjk",
    label: "PASSPORT_NUMBER",
    regex: concat!(
        r"(?:护照号码|护照号|護照號碼|護照號|旅券番号|パスポート番号|여권번호|여권 번호)",
        cjk_cued_value!()
    ),
    examples: &[
        ("护照号码：E40218836\n户籍", "E40218836"),
        ("旅券番号 TZ7720418", "TZ7720418"),
        ("護照號碼：312048871", "312048871"),
    ],
    counter_examples: &["护照号码已过期", "여권번호 12"],
    ..super::cued::PASSPORT_NUMBER
};

/// An insurance policy's or an insured person's number after its cue in Chinese, Japanese
/// or Korean (`保单号：P440120250093317`, `被保険者番号 48201773`, `증권번호 2025-118-4471`):
/// the [`super::cued::INSURANCE_NUMBER`] of text without spaces.
pub(super) const INSURANCE_CJK: PatternSpec = PatternSpec {
    name: "insurance_cjk",
    label: "HEALTH_PLAN_NUMBER",
    regex: concat!(
        r"(?:保单号码|保单号|保单编号|保險單號|保單號碼|保單號|保険証番号|被保険者番号|証券番号|보험증권번호|증권번호|보험번호)",
        cjk_cued_value!()
    ),
    examples: &[
        ("保单号：P440120250093317\n", "P440120250093317"),
        ("被保険者番号 48201773 の方", "48201773"),
        ("증권번호 2025-118-4471, 피보험자", "2025-118-4471"),
    ],
    counter_examples: &["保单号码请妥善保管", "증권번호 12"],
    ..super::cued::CUED_NUMBER
};

/// A vehicle's plate after its cue in Chinese or Korean, in the country's own form: a
/// province's character, a letter and five or six letters and digits (`车牌号粤B·8K2D7`,
/// `車牌號碼：京A12345`), or two or three digits, a Hangul syllable and four digits
/// (`차량번호 12가 3456`). The [`super::cued::LICENSE_PLATE`] of text without spaces.
pub(super) const LICENSE_PLATE_CJK: PatternSpec = PatternSpec {
    name: "license_plate_cjk",
    label: "LICENSE_PLATE",
    regex: r"(?x)
        (?:车牌号码|车牌号|车牌|車牌號碼|車牌號|車牌|차량번호|차량\ 번호|자동차\ ?번호)
        [\ \t]*(?:[:：]|是|為|为|는|은)?[\ \t]*
        ( \p{Han}[A-Z][·\ ]?[A-Z0-9]{5,6}
        | [0-9]{2,3}\ ?\p{Hangul}\ ?[0-9]{4} )
        (?:$|[^0-9A-Za-z])",
    group: 1,
    score: 0.8,
    proof: crate::engine::Proof::Grammar,
    negative_context: &[],
    examples: &[
        ("车牌号粤B·8K2D7的白色轿车", "粤B·8K2D7"),
        ("車牌號碼：京A12345", "京A12345"),
        ("차량번호 12가 3456 승용차", "12가 3456"),
        ("상대 차량 번호 341나 7781.", "341나 7781"),
    ],
    counter_examples: &["车牌号未知", "차량번호 123"],
    ..PatternSpec::BASE
};

/// A date as Chinese, Japanese and Korean write it, with its time when one follows:
/// `2025年3月12日`, `5月6日`, `2025년 3월 12일 오후 2시 30분`, `2025年9月2日上午9:30`,
/// `11月20日午後3時`, `2025년 10월 15일(수) 오전 10:30`. The characters 年/년, 月/월 and
/// 日/일/号 make it a date; the month and day are checked.
pub(super) const DATE_CJK: PatternSpec = PatternSpec {
    name: "date_cjk",
    label: "DATE_TIME",
    regex: r"(?x)
        (?:^|[^0-9])
        ( (?:[12][0-9]{3}\ ?[年년]\ ?)? [01]?[0-9]\ ?[月월]\ ?[0-3]?[0-9]\ ?[日일号號]
          (?:\ ?[(（][一二三四五六日月火水木金土월화수목금토일周週星期]{1,3}[)）])?
          (?:\ ?(?:上午|下午|中午|凌晨|晚上|早上|午前|午後|오전|오후)?\ ?[0-2]?[0-9]
             (?:[:：][0-5][0-9](?:[:：][0-5][0-9])? | \ ?[时時시点點](?:\ ?[0-5]?[0-9]\ ?[分분])?) )? )",
    group: 1,
    score: 0.85,
    validate: Some(apac::cjk_date),
    negative_context: &[],
    examples: &[
        ("会议定于2025年3月12日举行", "2025年3月12日"),
        ("5月6日凌晨出发", "5月6日"),
        (
            "2025년 3월 12일 오후 2시 30분에 만나요",
            "2025년 3월 12일 오후 2시 30분",
        ),
        ("2025年9月2日上午9:30到院", "2025年9月2日上午9:30"),
        ("11月20日午後3時に伺います", "11月20日午後3時"),
        (
            "2025년 10월 15일(수) 오전 10:30",
            "2025년 10월 15일(수) 오전 10:30",
        ),
    ],
    counter_examples: &["13月45日", "3月份的报告", "2025年度"],
    ..PatternSpec::BASE
};
