//! The conversation chain of a transcript (official `$p`, `qMe`, `ZMe`): compaction segments
//! relinked, the leaf chosen, the `parentUuid` chain walked back from it, and assistant messages
//! split over several entries (parallel tool calls) gathered back with their tool results.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::transcript::{last_text, message_id, tool_blocks, Entry};

/// Relinks preserved compaction segments so the chain runs through them.
fn relink(entries: &mut [Entry<'_>], index: &HashMap<String, usize>) {
    let boundaries: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].kind() == "system" && entries[i].subtype.as_deref() == Some("compact_boundary"))
        .collect();
    for b in boundaries {
        let Some(meta) = entries[b].compact.as_deref().cloned() else {
            continue;
        };
        if let Some(pm) = meta.preserved_messages {
            if pm.uuids.is_empty() || pm.uuids.iter().any(|u| !index.contains_key(u.as_ref())) {
                continue;
            }
            let anchor = pm.anchor.as_deref().map(str::to_string);
            let mut prev = anchor.clone();
            for u in &pm.uuids {
                let i = index[u.as_ref()];
                entries[i].relinked_parent = Some(prev.clone());
                prev = Some(u.to_string());
            }
            let first = pm.uuids[0].to_string();
            let last = pm.uuids[pm.uuids.len() - 1].to_string();
            for e in entries.iter_mut() {
                if e.parent().map(str::to_string) == anchor && anchor.is_some() && e.uuid() != first {
                    e.relinked_parent = Some(Some(last.clone()));
                }
            }
        } else if let Some(seg) = meta.preserved_segment {
            let anchor = seg.anchor.as_deref().map(str::to_string);
            let head = seg.head.as_deref().unwrap_or("").to_string();
            if let Some(&h) = index.get(&head) {
                entries[h].relinked_parent = Some(anchor.clone());
            }
            let tail = seg.tail.as_deref().map(str::to_string);
            for e in entries.iter_mut() {
                if e.parent().map(str::to_string) == anchor && e.uuid() != head {
                    e.relinked_parent = Some(tail.clone());
                }
            }
        }
    }
}

/// Hash maps keyed by transcript text: foldhash (fast, and seeded per process, so a crafted
/// transcript cannot choose colliding keys).
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type Set<K> = HashSet<K, foldhash::fast::RandomState>;

fn map<K, V>(n: usize) -> Map<K, V> {
    Map::with_capacity_and_hasher(n, Default::default())
}

fn set<K>(n: usize) -> Set<K> {
    Set::with_capacity_and_hasher(n, Default::default())
}

/// [`walk`], and the leaf message the chain was walked back from (`None` when there is none).
pub(crate) fn walk_to_leaf(entries: &mut Vec<Entry<'_>>) -> (Vec<usize>, Option<usize>) {
    let (chain, leaf, _) = walk_found(entries);
    (chain, leaf)
}

/// [`walk_to_leaf`], and the terminal entry whose walk back found the leaf (the official's
/// `found.terminal`: `None` when the leaf was found the fallback way).
pub(crate) fn walk_found(entries: &mut Vec<Entry<'_>>) -> (Vec<usize>, Option<usize>, Option<usize>) {
    let relinks = entries.iter().any(|e| {
        e.kind() == "system"
            && e.subtype.as_deref() == Some("compact_boundary")
            && e.compact
                .as_ref()
                .is_some_and(|c| c.preserved_messages.is_some() || c.preserved_segment.is_some())
    });
    if relinks {
        let mut index: HashMap<String, usize> = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            index.insert(e.uuid().to_string(), i);
        }
        relink(entries, &index);
    }
    let entries: &[Entry<'_>] = entries;
    // Each uuid's group (first position in file order, which the official orders by, and last
    // entry), numbered in the order the uuids first appear: no sort needed.
    let mut slots: Map<&str, u32> = map(entries.len());
    let mut groups: Vec<(usize, usize)> = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let next = groups.len() as u32;
        let g = *slots.entry(e.uuid()).or_insert(next);
        if g == next {
            groups.push((i, i));
        } else {
            groups[g as usize].1 = i;
        }
    }
    // The map's values in insertion order: the first position of each uuid, holding its last entry.
    let values: Vec<usize> = groups.iter().map(|&(_, last)| last).collect();
    let mut first_of = vec![usize::MAX; entries.len()];
    for &(first, last) in &groups {
        first_of[last] = first;
    }
    // A uuid's canonical entry: the last one with it.
    let by_uuid = |u: &str| slots.get(u).map(|&g| groups[g as usize].1);
    // A canonical entry's position is its uuid's first position.
    let pos = |i: usize| first_of[i] as i64;
    // Which entries are the parent of some entry, and of some main-conversation entry.
    #[allow(clippy::nonminimal_bool)] // the official's conditions, one by one
    let is_main = |e: &Entry<'_>| {
        !e.sidechain
            && !e.has_team()
            && e.kind() != "progress"
            && !(e.kind() == "attachment"
                && e.attachment.as_ref().and_then(|a| a.kind.as_deref()) == Some("fork_briefing"))
    };
    let mut is_parent = vec![false; entries.len()];
    let mut is_main_parent = vec![false; entries.len()];
    // Each canonical entry's parent entry, looked up once (the walks below follow it). Most
    // parents are the entry just before, when it is its uuid's canonical one: that is checked
    // before the map is.
    let mut parent_of: Vec<Option<usize>> = vec![None; entries.len()];
    for &i in &values {
        let Some(p) = entries[i].parent().filter(|p| !p.is_empty()) else {
            continue;
        };
        let before = i
            .checked_sub(1)
            .filter(|&b| first_of[b] != usize::MAX && entries[b].uuid() == p);
        if let Some(p) = before.or_else(|| by_uuid(p)) {
            parent_of[i] = Some(p);
            is_parent[p] = true;
            if is_main(&entries[i]) {
                is_main_parent[p] = true;
            }
        }
    }
    let mut leaves: Vec<usize> = values
        .iter()
        .copied()
        .filter(|&i| is_main(&entries[i]) && !is_main_parent[i])
        .collect();
    leaves.sort_by_key(|&i| std::cmp::Reverse(pos(i)));
    let lookup = |i: usize| parent_of[i];
    // Indexes met on walks that found no message (the official's dead set), and per walk.
    let mut dead = vec![false; entries.len()];
    let mut leaf: Option<usize> = None;
    let mut terminal: Option<usize> = None;
    for &l in &leaves {
        let mut path = Vec::new();
        let mut seen: Set<usize> = set(0);
        let mut cur = Some(l);
        while let Some(c) = cur {
            if dead[c] || seen.contains(&c) {
                break;
            }
            if entries[c].is_message() {
                leaf = Some(c);
                terminal = Some(l);
                break;
            }
            seen.insert(c);
            path.push(c);
            cur = lookup(c);
        }
        if leaf.is_some() {
            break;
        }
        for c in path {
            dead[c] = true;
        }
    }
    let leaf = match leaf {
        Some(l) => l,
        None => {
            let terminals: Vec<usize> = values.iter().copied().filter(|&i| !is_parent[i]).collect();
            let mut found = Vec::new();
            for t in terminals {
                let mut cur = Some(t);
                let mut seen: Set<usize> = set(0);
                while let Some(c) = cur {
                    if !seen.insert(c) {
                        break;
                    }
                    if entries[c].is_message() {
                        found.push(c);
                        break;
                    }
                    cur = lookup(c);
                }
            }
            if found.is_empty() {
                return (Vec::new(), None, None);
            }
            let main: Vec<usize> = found
                .iter()
                .copied()
                .filter(|&i| !entries[i].sidechain && !entries[i].has_team() && !entries[i].meta)
                .collect();
            let pick = if main.is_empty() { &found } else { &main };
            let mut best = pick[0];
            for &c in pick.iter().skip(1) {
                if pos(c) > pos(best) {
                    best = c;
                }
            }
            best
        }
    };
    // Every index on the walk is some uuid's last entry, so a uuid seen twice is an index seen twice.
    let mut chain = Vec::new();
    let mut on_chain = vec![false; entries.len()];
    let mut cur = Some(leaf);
    while let Some(c) = cur {
        if on_chain[c] {
            break;
        }
        on_chain[c] = true;
        chain.push(c);
        cur = lookup(c);
    }
    chain.reverse();
    (
        gather_split(entries, &values, &parent_of, &by_uuid, chain),
        Some(leaf),
        terminal,
    )
}

/// What the split-message pass needs of an entry's message, from one parse of it.
#[derive(Default)]
struct Facts<'a> {
    /// An assistant message's `id`.
    id: Option<Cow<'a, str>>,
    /// Its tool ids, `ids[from..to]` of [`Tools`]: an assistant message's `tool_use` ids, a user
    /// message's `tool_result` ids.
    from: u32,
    to: u32,
    /// A user message has a `tool_result` block.
    has_result: bool,
    /// The ids are a user message's (`tool_result` ids).
    user: bool,
}

/// The tool ids of every entry's [`Facts`], one after another.
type Tools<'a> = Vec<Cow<'a, str>>;

fn facts_of<'a>(e: &Entry<'a>, tools: &mut Tools<'a>) -> Facts<'a> {
    let assistant = e.kind() == "assistant";
    let user = e.kind() == "user";
    if !(assistant || user) {
        return Facts::default();
    }
    let want = if assistant { "tool_use" } else { "tool_result" };
    let mut f = Facts {
        id: if assistant { message_id(e) } else { None },
        ..Facts::default()
    };
    let Some((any, ids)) = wanted_blocks(e, want) else {
        return f;
    };
    f.from = tools.len() as u32;
    tools.extend(ids);
    f.to = tools.len() as u32;
    f.has_result = user && any;
    f.user = user;
    f
}

/// The blocks of kind `want` in the entry's message: whether there is one, and their ids
/// (see [`tool_blocks`]); `None` when the message's text does not have `want` in it (most user
/// entries are prompts: their messages are not read). Taken from what the line scan noted when
/// it did ([`Entry::scanned_tools`]), else by reading the message.
fn wanted_blocks<'a>(e: &Entry<'a>, want: &str) -> Option<(bool, Vec<Cow<'a, str>>)> {
    let Some(found) = &e.scanned_tools else {
        return mentions(e, want).then(|| tool_blocks(e, want));
    };
    let result = want == "tool_result";
    let wanted = || found.iter().filter(|t| t.result == result);
    // No such block: the facts are those of a message without the word (no ids, no result).
    wanted().next()?;
    // A block whose type was not escaped has the word in the text; else the text is searched.
    if wanted().all(|t| t.type_escaped) && !mentions(e, want) {
        return None;
    }
    Some((true, wanted().filter_map(|t| t.id.clone()).collect()))
}

/// Each entry's message id and tool ids, parsed once (only for the entries the pass reads).
/// From [`FACTS_SHARED_FROM`] entries on, the parsing is shared with a helper thread in parts
/// of [`FACTS_PART`] entries ([`super::shared::two_ended`]): on the 5,086-line bench transcript
/// it was the largest part of the chain walk (1.6 ms of 3).
fn all_facts<'a>(entries: &[Entry<'a>], values: &[usize]) -> (Vec<Facts<'a>>, Tools<'a>) {
    let mut facts: Vec<Facts<'a>> = Vec::new();
    facts.resize_with(entries.len(), Facts::default);
    if !super::shared::worth_helping(values.len(), FACTS_SHARED_FROM) {
        let mut tools: Tools<'a> = Vec::new();
        for &i in values {
            facts[i] = facts_of(&entries[i], &mut tools);
        }
        return (facts, tools);
    }
    // Each thread's facts (entry index, facts whose tool ids index its own tool list).
    type Found<'a> = (Vec<(usize, Facts<'a>)>, Tools<'a>);
    let parts = values.len().div_ceil(FACTS_PART);
    let found = |n: usize| -> Found<'a> { (Vec::with_capacity(n), Vec::new()) };
    let (front, helped) = super::shared::two_ended(
        parts,
        found(values.len()),
        Some(found(values.len() / 2 + 1)),
        |p, (out, tools): &mut Found<'a>| {
            for &i in &values[p * FACTS_PART..((p + 1) * FACTS_PART).min(values.len())] {
                out.push((i, facts_of(&entries[i], tools)));
            }
        },
    );
    let (front_facts, mut tools) = front;
    for (i, f) in front_facts {
        facts[i] = f;
    }
    if let Some(h) = helped {
        let (back_facts, back_tools) = h.acc;
        let offset = tools.len() as u32;
        tools.extend(back_tools);
        for (i, mut f) in back_facts {
            f.from += offset;
            f.to += offset;
            facts[i] = f;
        }
    }
    (facts, tools)
}

/// Below this many entries their facts are parsed on one thread.
const FACTS_SHARED_FROM: usize = 2048;
/// Entries per part when the facts are shared.
const FACTS_PART: usize = 256;

/// Puts back the other parts of assistant messages the chain passes through (entries with the
/// same `message.id`) and the tool results answering them (official `qMe`).
fn gather_split<'a>(
    entries: &[Entry<'a>],
    values: &[usize],
    parent_of: &[Option<usize>],
    by_uuid: &dyn Fn(&str) -> Option<usize>,
    chain: Vec<usize>,
) -> Vec<usize> {
    let assistants: Vec<usize> = chain
        .iter()
        .copied()
        .filter(|&i| entries[i].kind() == "assistant")
        .collect();
    if assistants.is_empty() {
        return chain;
    }
    let (facts, tools) = all_facts(entries, values);
    let msg_id = |i: usize| -> Option<&str> { facts[i].id.as_deref() };
    let ids_of = |i: usize| -> &[Cow<'a, str>] { &tools[facts[i].from as usize..facts[i].to as usize] };
    // A user message's `tool_result` ids (none for an assistant message).
    let results_of = |i: usize| -> &[Cow<'a, str>] {
        if facts[i].user {
            ids_of(i)
        } else {
            &[]
        }
    };
    let mut in_chain: Vec<bool> = vec![false; entries.len()];
    for &c in &chain {
        in_chain[c] = true;
    }
    let mut chain_by_id: Map<&str, usize> = map(assistants.len());
    for &a in &assistants {
        if let Some(id) = msg_id(a) {
            chain_by_id.insert(id, a);
        }
    }
    // The entries with each message id, in file order: the id's group number, then the groups'
    // members one after another (`members[starts[g]..starts[g + 1]]`).
    let with_id = values.iter().filter(|&&i| msg_id(i).is_some()).count();
    let mut group_of: Map<&str, u32> = map(with_id);
    let mut sizes: Vec<u32> = Vec::new();
    let mut tool_owner: Map<&str, Option<usize>> = map(tools.len());
    let mut results: Vec<usize> = Vec::new();
    for &i in values {
        if let Some(id) = msg_id(i) {
            let next = sizes.len() as u32;
            let g = *group_of.entry(id).or_insert(next);
            if g == next {
                sizes.push(0);
            }
            sizes[g as usize] += 1;
            for t in ids_of(i) {
                let v = match tool_owner.get(t.as_ref()).copied() {
                    None => Some(i),
                    Some(Some(w)) if msg_id(w) == Some(id) => Some(i),
                    _ => None,
                };
                tool_owner.insert(t, v);
            }
        } else if entries[i].kind() == "user"
            && entries[i].parent().is_some_and(|p| !p.is_empty())
            && facts[i].has_result
        {
            results.push(i);
        }
    }
    let mut starts: Vec<u32> = Vec::with_capacity(sizes.len() + 1);
    let mut at = 0;
    starts.push(0);
    for n in &sizes {
        at += n;
        starts.push(at);
    }
    let mut members: Vec<usize> = vec![0; at as usize];
    let mut fill: Vec<u32> = starts[..sizes.len()].to_vec();
    for &i in values {
        if let Some(id) = msg_id(i) {
            let g = group_of[id] as usize;
            members[fill[g] as usize] = i;
            fill[g] += 1;
        }
    }
    let same_side =
        |a: usize, b: usize| entries[a].sidechain == entries[b].sidechain && entries[a].agent_id == entries[b].agent_id;
    // The results answering each entry (every index here is a uuid's canonical entry), without
    // repeats, in the order they were found: pairs (answered, result) sorted by the answered
    // entry (a stable sort keeps the order within one).
    let mut answers: Vec<(usize, usize)> = Vec::with_capacity(results.len());
    // (Only the pairs of one result can repeat one another: those from `from` on.)
    let add = |answers: &mut Vec<(usize, usize)>, from: usize, parent: usize, child: usize| {
        if !answers[from..].contains(&(parent, child)) {
            answers.push((parent, child));
        }
    };
    for &r in &results {
        let from = answers.len();
        if let Some(p) = parent_of[r] {
            add(&mut answers, from, p, r);
        }
        if let Some(src) = entries[r].source_tool_assistant.as_deref() {
            if Some(src) != entries[r].parent() {
                if let Some(s) = by_uuid(src) {
                    if same_side(r, s) {
                        add(&mut answers, from, s, r);
                    }
                }
            }
        }
        for t in results_of(r) {
            if let Some(Some(owner)) = tool_owner.get(t.as_ref()) {
                if same_side(r, *owner) {
                    add(&mut answers, from, *owner, r);
                }
            }
        }
    }
    answers.sort_by_key(|&(p, _)| p);
    let children = |m: usize| -> &[(usize, usize)] {
        let a = answers.partition_point(|&(p, _)| p < m);
        let z = answers.partition_point(|&(p, _)| p <= m);
        &answers[a..z]
    };
    let mut answered: Set<&str> = set(chain.len());
    for &c in &chain {
        answered.extend(results_of(c).iter().map(|r| r.as_ref()));
    }
    let mut file_order: Vec<u32> = vec![u32::MAX; entries.len()];
    for (n, &i) in values.iter().enumerate() {
        file_order[i] = n as u32;
    }
    let mut done_ids: Set<&str> = set(assistants.len());
    let mut insert_after: Map<usize, Vec<usize>> = map(0);
    let mut total = 0;
    for &a in &assistants {
        let Some(id) = msg_id(a) else { continue };
        if !done_ids.insert(id) {
            continue;
        }
        let single = [a];
        let group: &[usize] = match group_of.get(id) {
            Some(&g) => &members[starts[g as usize] as usize..starts[g as usize + 1] as usize],
            None => &single[..],
        };
        let in_group = |i: usize| group.contains(&i);
        let mut missing: Vec<usize> = group.iter().copied().filter(|&i| !in_chain[i]).collect();
        let mut direct = Vec::new();
        let mut other = Vec::new();
        let mut seen_child: Set<usize> = set(0);
        for &m in group {
            for &(_, c) in children(m) {
                if in_chain[c] || !seen_child.insert(c) {
                    continue;
                }
                if parent_of[c].is_some_and(in_group) {
                    direct.push(c);
                } else {
                    other.push(c);
                }
            }
        }
        if !other.is_empty() {
            let mut have: Set<&str> = answered.clone();
            for &d in &direct {
                have.extend(results_of(d).iter().map(|r| r.as_ref()));
            }
            other.sort_by_key(|&o| file_order[o]);
            for o in other {
                let ids = results_of(o);
                let wanted = ids.iter().any(|t| {
                    !have.contains(t.as_ref()) && tool_owner.get(t.as_ref()).copied().flatten().is_some_and(in_group)
                });
                if !wanted {
                    continue;
                }
                have.extend(ids.iter().map(|r| r.as_ref()));
                direct.push(o);
            }
        }
        if missing.is_empty() && direct.is_empty() {
            continue;
        }
        let ts = |i: &usize| entries[*i].timestamp.as_deref().unwrap_or("");
        missing.sort_by(|a, b| ts(a).cmp(ts(b)));
        direct.sort_by(|a, b| ts(a).cmp(ts(b)));
        let anchor = chain_by_id.get(id).copied().unwrap_or(a);
        let mut all = missing;
        all.extend(direct);
        for &i in &all {
            in_chain[i] = true;
        }
        total += all.len();
        insert_after.insert(anchor, all);
    }
    if total == 0 {
        return chain;
    }
    let mut out = Vec::with_capacity(chain.len() + total);
    for c in chain {
        out.push(c);
        if let Some(extra) = insert_after.get(&c) {
            out.extend(extra.iter().copied());
        }
    }
    out
}

/// Whether the message's JSON text contains `word` at all (a cheap filter before parsing it).
fn mentions(e: &Entry<'_>, word: &str) -> bool {
    use memchr::memmem::Finder;
    use std::sync::OnceLock;
    static USE: OnceLock<Finder<'static>> = OnceLock::new();
    static RESULT: OnceLock<Finder<'static>> = OnceLock::new();
    let finder = match word {
        "tool_use" => USE.get_or_init(|| Finder::new("tool_use")),
        "tool_result" => RESULT.get_or_init(|| Finder::new("tool_result")),
        _ => return e.message.is_some_and(|m| super::scan::has(m.get(), word)),
    };
    e.message.is_some_and(|m| finder.find(m.get().as_bytes()).is_some())
}

/// Marks the slash-command records and their output that follow a local-command caveat
/// (official `ZMe`).
pub(crate) fn mark_local_commands(entries: &mut [Entry<'_>], list: &[usize]) {
    let class = |e: &Entry<'_>| -> Option<&'static str> {
        if e.prompt_source.is_some() {
            return None;
        }
        let t = last_text(e)?;
        [
            ("<command-name>", "record"),
            ("<local-command-stdout>", "output"),
            ("<local-command-stderr>", "output"),
            ("<local-command-caveat>", "caveat"),
        ]
        .iter()
        .find(|(p, _)| t.starts_with(p))
        .map(|(_, c)| *c)
    };
    let mut marks = Vec::new();
    for (n, &i) in list.iter().enumerate() {
        let e = &entries[i];
        if e.kind() != "user" || !e.meta || class(e) != Some("caveat") {
            continue;
        }
        let mut recorded = false;
        for &j in &list[n + 1..] {
            let f = &entries[j];
            if f.kind() == "assistant" {
                break;
            }
            if f.kind() != "user" || f.meta {
                continue;
            }
            let c = class(f);
            if c == Some("record") && !recorded {
                recorded = true;
            } else if c != Some("output") || !recorded {
                break;
            }
            marks.push(j);
        }
    }
    for j in marks {
        entries[j].completed_local_command = true;
    }
}

#[cfg(test)]
mod tests {
    /// The facts parsed with a helper are the ones parsed on one thread, entry for entry.
    #[test]
    fn shared_facts_are_the_facts() {
        let mut text = String::new();
        for n in 0..5000 {
            let line = match n % 4 {
                0 => format!(r#"{{"type":"user","uuid":"u{n}","message":{{"content":"prompt {n}"}}}}"#),
                1 => format!(
                    r#"{{"type":"assistant","uuid":"u{n}","message":{{"id":"m{}","content":[{{"type":"tool_use","id":"t{n}"}},{{"type":"tool_use","id":"s{n}"}}]}}}}"#,
                    n / 8
                ),
                2 => format!(
                    r#"{{"type":"user","uuid":"u{n}","message":{{"content":[{{"type":"tool_result","tool_use_id":"t{}"}}]}}}}"#,
                    n - 1
                ),
                _ => format!(
                    r#"{{"type":"assistant","uuid":"u{n}","message":{{"id":"m{n}","content":[{{"type":"text","text":"tool_use"}}]}}}}"#
                ),
            };
            text.push_str(&line);
            text.push('\n');
        }
        let entries = crate::sessions::transcript::parse_entries(&text, &["user", "assistant"]);
        let values: Vec<usize> = (0..entries.len()).collect();
        let mut tools = Vec::new();
        let one: Vec<super::Facts<'_>> = values
            .iter()
            .map(|&i| super::facts_of(&entries[i], &mut tools))
            .collect();
        fn view(
            f: &super::Facts<'_>,
            tools: &[std::borrow::Cow<'_, str>],
        ) -> (Option<String>, Vec<String>, bool, bool) {
            (
                f.id.as_deref().map(str::to_string),
                tools[f.from as usize..f.to as usize]
                    .iter()
                    .map(|t| t.to_string())
                    .collect(),
                f.has_result,
                f.user,
            )
        }
        for _ in 0..20 {
            let (shared, shared_tools) = super::all_facts(&entries, &values);
            for i in values.iter().copied() {
                assert_eq!(view(&shared[i], &shared_tools), view(&one[i], &tools), "entry {i}");
            }
        }
        assert_eq!(tools.len(), 2500 + 1250);
    }

    /// The tool blocks the line scan noted give the facts reading the message gives (repeated
    /// keys at every level, escaped key and type names, nested content, non-ASCII text, blocks
    /// that do not count), for user and assistant lines, with the message repeated too.
    #[test]
    fn scanned_tools_give_the_facts_of_the_message() {
        let messages = [
            r#"{"id":"m","content":[{"type":"tool_use","id":"a"},{"type":"tool_result","tool_use_id":"b"},{"type":"text","text":"x"}]}"#,
            r#"{"content":[{"type":"tool\u005fuse","id":"e1"},{"type":"tool\u005fresult","tool_use_id":"e2"}]}"#,
            r#"{"content":[{"type":"tool\u005fuse","id":"e3"},{"type":"text","text":"tool_use tool_result"}]}"#,
            r#"{"content":[{"type":"tool\u005fuse","id":"e4"},{"type":"tool_use","id":"e5"},{"type":"tool\u005fresult","tool_use_id":"e6"},{"type":"tool_result","tool_use_id":"e7"}]}"#,
            r#"{"content":[{"type":"tool_result","tool_use_id":"x"}],"content":[{"type":"tool_use","id":"y"},{"type":"tool_result","tool_use_id":"z"}]}"#,
            r#"{"content":[{"type":"tool_use","id":"y"},{"type":"tool_result","tool_use_id":"y"}],"content":"tool_use tool_result"}"#,
            r#"{"content":[{"type":"tool_use","id":"y"}],"content":null,"id":"m2"}"#,
            r#"{"content":[{"type":"tool_use","id":"a","id":"b"},{"type":"tool_use","type":"tool_use","id":"c"},{"type":"tool_use","id":"d","text":5},{"type":"tool_use","id":7},{"type":"tool_use","id":null},{"type":"tool_use"},{"type":"tool_result","tool_use_id":"f","text":null,"id":[1]},{"type":"tool_result","tool_use_id":"g","tool_use_id":"h"},{"type":"tool_result","tool_use_id":{"a":"b"}}]}"#,
            r#"{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"tool_result","tool_use_id":"inner"},{"type":"tool_use","id":"inner2"}]},[{"type":"tool_use","id":"d"}],"tool_use",7,null],"nested":{"content":[{"type":"tool_use","id":"no"}]}}"#,
            r#"{"cont\u0065nt":[{"t\u0079pe":"tool_use","\u0069d":"k1"},{"type":"tool_result","tool\u005fuse_id":"k2"}]}"#,
            "{\"id\":\"m\\u00e9\",\"content\":[{\"type\":\"tool_use\",\"id\":\"\u{e9}\u{1f916}\",\"input\":{\"q\":\"\u{2014} \u{fc}\"}},{\"type\":\"tool_result\",\"tool_use_id\":\"\u{fc}\\n\",\"content\":\"\u{e9}\"}]}",
            r#"{"content":[{"type":"tool_use","id":"a\u0041\"b\\"},{"type":"tool_result","tool_use_id":"\u00e9\/"}]}"#,
            r#"{"content":[{"type":"tool_use","id":"\ud800"},{"type":"tool_result","tool_use_id":"\ud800x"},{"type":"tool_use","id":"after"}]}"#,
            r#"{"content":[{"\ud800":1,"type":"tool_use","id":"ls"},{"type":"\ud800","id":"lt"}]}"#,
            r#"{"content":[{"type":7,"id":"q"},{"type":null,"id":"q2"},{"type":"tool_usex","id":"q3"},{"type":"Tool_use","id":"q4"}]}"#,
            r#" { "content" : [ { "type" : "tool_use" , "id" : "s p" } , { "type" : "tool_result" , "tool_use_id" : "s q" } ] } "#,
            r#"{"id":"x","id":"y","content":[{"type":"tool_use","id":"i1"}],"role":"assistant"}"#,
            r#"{"content":[],"id":"tool_use"}"#,
            r#"{}"#,
            r#""tool_use tool_result""#,
            r#"["tool_use",{"type":"tool_use","id":"arr"}]"#,
            r#"null"#,
            r#"7"#,
        ];
        let mut lines = Vec::new();
        for kind in ["user", "assistant"] {
            for m in messages {
                lines.push(format!(r#"{{"type":"{kind}","uuid":"u","message":{m}}}"#));
                // The message repeated: the last counts.
                lines.push(format!(
                    r#"{{"type":"{kind}","uuid":"u","message":{},"message":{m}}}"#,
                    messages[0]
                ));
                lines.push(format!(
                    r#"{{"message":{m},"type":"{kind}","message":{{"content":"none"}},"uuid":"u"}}"#
                ));
                // A `content` outside the message is not its content.
                lines.push(format!(
                    r#"{{"type":"{kind}","content":[{{"type":"tool_use","id":"top"}}],"uuid":"u","message":{m},"x":{{"message":{}}}}}"#,
                    messages[0]
                ));
            }
        }
        fn view(
            f: &super::Facts<'_>,
            tools: &[std::borrow::Cow<'_, str>],
        ) -> (Option<String>, Vec<String>, bool, Vec<String>) {
            let ids: Vec<String> = tools[f.from as usize..f.to as usize]
                .iter()
                .map(|t| t.to_string())
                .collect();
            // `user` only says whether the ids are results (an empty list either way otherwise).
            let results = if f.user { ids.clone() } else { Vec::new() };
            (f.id.as_deref().map(str::to_string), ids, f.has_result, results)
        }
        let (mut with_ids, mut results) = (0, 0);
        for line in &lines {
            let entries = crate::sessions::transcript::parse_entries(line, &["user", "assistant"]);
            assert_eq!(entries.len(), 1, "{line}");
            let scanned = &entries[0];
            assert!(scanned.scanned_tools.is_some(), "{line}");
            let mut read = scanned.clone();
            read.scanned_tools = None;
            let (mut t1, mut t2) = (Vec::new(), Vec::new());
            let new = view(&super::facts_of(scanned, &mut t1), &t1);
            let old = view(&super::facts_of(&read, &mut t2), &t2);
            assert_eq!(new, old, "{line}");
            with_ids += usize::from(!old.1.is_empty());
            results += usize::from(old.2);
        }
        assert!(with_ids > 40 && results > 20, "{with_ids} {results}");
    }
}
