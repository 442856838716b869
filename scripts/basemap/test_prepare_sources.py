"""Offline checks of the local-script name choice in prepare_sources.py.

    python3 -m unittest scripts/basemap/test_prepare_sources.py
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import prepare_sources as P  # noqa: E402


def choose(latin, alternates, country, admin1=""):
    return P.choose_local_name(latin, alternates, P.expected_scripts(country, admin1), country)


class LocalNameTests(unittest.TestCase):
    def test_japanese_kanji_over_simplified_chinese(self):
        alts = ["Tokyo", "Tōkyō", "Токио", "トウキョウ", "东京", "東京", "東京都", "도쿄"]
        self.assertEqual(choose("Tokyo", alts, "JP"), ("東京", "Han"))

    def test_japanese_kana_only(self):
        self.assertEqual(choose("Kosugi", ["Kosugi", "コスギ"], "JP"), ("コスギ", "Katakana"))
        self.assertEqual(choose("Saitama", ["Saitama", "さいたま"], "JP"), ("さいたま", "Hiragana"))

    def test_chinese_simplified_and_no_abbreviation(self):
        alts = ["Shanghai", "沪", "上海", "上海市", "Шанхай"]
        self.assertEqual(choose("Shanghai", alts, "CN"), ("上海", "Han"))

    def test_korean_name_like_latin_name(self):
        alts = ["Seoul", "Sŏul", "Gyeongseong", "경성", "서울", "서울특별시", "ソウル"]
        self.assertEqual(choose("Seoul", alts, "KR"), ("서울", "Hangul"))

    def test_india_by_state(self):
        alts = ["Chennai", "Madras", "चेन्नई", "சென்னை", "চেন্নাই", "Ченнаи"]
        self.assertEqual(choose("Chennai", alts, "IN", "25"), ("சென்னை", "Tamil"))
        self.assertEqual(choose("Chennai", alts, "IN", "16"), ("चेन्नई", "Devanagari"))

    def test_national_alphabet(self):
        # Ukrainian і/ї beat the Russian spelling in UA and lose in RU.
        alts = ["Kyiv", "Kiev", "Киев", "Київ", "Кіеў"]
        self.assertEqual(choose("Kyiv", alts, "UA"), ("Київ", "Cyrillic"))
        self.assertEqual(choose("Kyiv", alts, "RU"), ("Киев", "Cyrillic"))

    def test_arabic_not_uyghur(self):
        alts = ["Cairo", "Al Qāhirah", "قاھىرە", "القاهرة"]
        self.assertEqual(choose("Cairo", alts, "EG"), ("القاهرة", "Arabic"))

    def test_arabic_language_marks(self):
        # The article and teh marbuta beat a Persian-like spelling.
        alts = ["Cairo", "Al Qāhirah", "القاهرة", "قاهره", "قاہرہ"]
        self.assertEqual(choose("Cairo", alts, "EG")[0], "القاهرة")
        alts = ["Riyadh", "Ar Riyāḑ", "الرياض", "رىياد", "رياض", "ریاض"]
        self.assertEqual(choose("Riyadh", alts, "SA")[0], "الرياض")

    def test_persian_and_urdu_letters(self):
        alts = ["Kabul", "Kābul", "كابل", "كابۇل", "کابل", "کابول"]
        self.assertEqual(choose("Kabul", alts, "AF")[0], "کابل")
        alts = ["Karachi", "كاراتشى", "كراتشي", "کراچی", "کراچۍ", "ڪراچي"]
        self.assertEqual(choose("Karachi", alts, "PK")[0], "کراچی")
        alts = ["Lahore", "لاهور", "لاہور", "لہور"]
        self.assertEqual(choose("Lahore", alts, "PK")[0], "لاہور")

    def test_votes_of_latin_names(self):
        alts = ["Moscow", "Moskva", "Moskwa", "Moskau", "Moskou", "Moskova", "Mosca",
                "Москва", "Москова", "Масква"]
        self.assertEqual(choose("Moscow", alts, "RU")[0], "Москва")

    def test_fuller_forms(self):
        alts = ["Sofia", "Sofiya", "Sofija", "Sofi", "Софи", "София", "Софія"]
        self.assertEqual(choose("Sofia", alts, "BG")[0], "София")
        alts = ["Nicosia", "Lefkosia", "Lefkosian", "Λευκωσία", "Λευκωσίαν"]
        self.assertEqual(choose("Nicosia", alts, "CY")[0], "Λευκωσία")
        alts = ["Jerusalem", "Yerushalem", "Yerushalayim", "ירושלם", "ירושלים", "יְרוּשָׁלַיִם"]
        self.assertEqual(choose("Jerusalem", alts, "IL")[0], "ירושלים")

    def test_mongolian_and_hyphen(self):
        alts = ["Ulan Bator", "Ulaanbaatar", "Ulan-Bator", "Улаанбаатар", "Улан Батор", "Улан-Батор"]
        self.assertEqual(choose("Ulan Bator", alts, "MN")[0], "Улаанбаатар")
        alts = ["Saint Petersburg", "Sankt-Peterburg", "Санкт Петербург", "Санкт-Петербург"]
        self.assertEqual(choose("Saint Petersburg", alts, "RU")[0], "Санкт-Петербург")

    def test_armenian_and_lists(self):
        alts = ["Yerevan", "Erevan", "Այրիվան  Երիվան  Էրեվան", "Երեւան", "Երևան", "Յերեվան"]
        self.assertEqual(choose("Yerevan", alts, "AM")[0], "Երևան")

    def test_amman_unvocalised_spelling(self):
        alts = ["Amman", "ʿAmmān", "امان", "عمان", "عمّان", "عَمّان"]
        self.assertEqual(choose("Amman", alts, "JO")[0], "عمان")

    def test_marks_and_spaces_are_ignored(self):
        alts = ["Athens", "Athína", "Αθήνα", "Ἀθῆναι", "Афины"]
        self.assertEqual(choose("Athens", alts, "GR"), ("Αθήνα", "Greek"))
        alts = ["Addis Ababa", "አዲስ አበባ", "Аддис-Абеба"]
        self.assertEqual(choose("Addis Ababa", alts, "ET"), ("አዲስ አበባ", "Ethiopic"))

    def test_mixed_script_rejected(self):
        self.assertEqual(choose("Foo", ["Foo", "Москва2000 abc"], "RU"), (None, None))

    def test_latin_country_and_no_candidate(self):
        self.assertEqual(choose("London", ["Londres", "Лондон", "ロンドン"], "GB"), (None, None))
        self.assertEqual(choose("Nowhere", ["Nowhere", "Нигде"], "TH"), (None, None))

    def test_scale(self):
        self.assertEqual(P.population_rank(0), 0)
        self.assertEqual(P.population_rank(8961989), 14)
        self.assertEqual(P.population_rank(20000000), 15)
        self.assertEqual(P.locality_min_zoom(26122, False), 8)
        self.assertEqual(P.locality_min_zoom(20000, True), 4)
        self.assertEqual(P.kind_detail(50000, True), "city")


if __name__ == "__main__":
    unittest.main()
