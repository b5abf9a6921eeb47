// Package evaluate measures how well cairn's search finds the turns a
// conversational benchmark names as evidence. It holds the data side and the
// scoring of `cairn eval retrieval`, and knows nothing of the store: the
// command writes each [Dataset] into a fresh store, asks every [Question]
// through search, hands the ranked turn ids back as [Ranked] lists, and
// [Score] turns them into a [Report].
//
// # Data
//
// Two loaders fill the same model. [LoadLoCoMo] reads the LoCoMo release
// file (locomo10.json) as published; [LoadJSONL] reads cairn's own generic
// format (docs/eval-format.md), to which any other conversational benchmark
// can be converted, and [WriteJSONL] writes it back. Turn ids are unique
// within their conversation only; question ids are unique in the dataset.
// A question with no evidence is kept, and recall skips it. Defects in the
// data that do not stop loading (evidence naming no turn, evidence strings
// holding no turn id) are listed in [Dataset.Warnings].
//
// LoCoMo specifics: the conversation id is the file's sample_id
// ("conv-26"), or "conv-<index>" when absent; session ids are
// "session_<n>"; turn ids are the dia_ids ("D1:3"); question ids are
// "locomo_<convIndex>_qa<qaIndex>", both 0-based, as in the LoCoMo audit.
// A turn that shared an image carries its caption at the end of its text,
// as " [shared image: <caption>]", because the caption is the only trace of
// the image that search can match. Session dates ("1:56 pm on 8 May, 2023")
// carry no zone and are read as UTC; turn n (0-based) of a session gets the
// session time plus n minutes, so turn order survives any sort by time.
// Evidence strings are read with the pattern D<session>:<turn>, which also
// splits strings that hold several ids ("D8:6; D9:17"); leading zeros are
// dropped ("D30:05" is D30:5). Categories map 1 multi-hop, 2 temporal,
// 3 open-domain, 4 single-hop, 5 adversarial.
//
// # Scoring
//
// Recall follows LoCoMo: for each question with evidence, the share of its
// distinct evidence turns found among the first k distinct retrieved turns,
// averaged over those questions (adversarial ones included in "overall").
// Only the gold evidence counts; no audit corrections are applied. MRR is
// the mean reciprocal rank of the first evidence turn anywhere in the list;
// session-hit@k is the share of questions whose first k entries touch a
// session holding an evidence turn. A question given no ranked list scores
// zero and is counted as missing.
package evaluate
