//! The conversation chain of a transcript (official `$p`, `qMe`, `ZMe`): compaction segments
//! relinked, the leaf chosen, the `parentUuid` chain walked back from it, and assistant messages
//! split over several entries (parallel tool calls) gathered back with their tool results.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::transcript::{last_text, message_id, tool_blocks, Entry};

/// Relinks preserved compaction segments so the chain runs through them.
fn relink(entries: &mut [Entry<'_>], index: &HashMap<String, usize>) {
  let boundaries: Vec<usize> = (0..entries.len()).filter(|&i| entries[i].kind() == "system" && entries[i].subtype.as_deref() == Some("compact_boundary")).collect();
  for b in boundaries {
    let Some(meta) = entries[b].compact.as_deref().cloned() else { continue };
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

/// Walks the chain; returns the entries of the conversation, first to last, as indexes into
/// `entries` (where a uuid appears more than once, the last entry with it counts).
pub fn walk(entries: &mut Vec<Entry<'_>>) -> Vec<usize> {
  walk_to_leaf(entries).0
}

/// [`walk`], and the leaf message the chain was walked back from (`None` when there is none).
pub fn walk_to_leaf(entries: &mut Vec<Entry<'_>>) -> (Vec<usize>, Option<usize>) {
  let (chain, leaf, _) = walk_found(entries);
  (chain, leaf)
}

/// [`walk_to_leaf`], and the terminal entry whose walk back found the leaf (the official's
/// `found.terminal`: `None` when the leaf was found the fallback way).
pub fn walk_found(entries: &mut Vec<Entry<'_>>) -> (Vec<usize>, Option<usize>, Option<usize>) {
  let relinks = entries.iter().any(|e| e.kind() == "system" && e.subtype.as_deref() == Some("compact_boundary") && e.compact.as_ref().map_or(false, |c| c.preserved_messages.is_some() || c.preserved_segment.is_some()));
  if relinks {
    let mut index: HashMap<String, usize> = HashMap::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
      index.insert(e.uuid().to_string(), i);
    }
    relink(entries, &index);
  }
  let entries: &[Entry<'_>] = entries;
  // Each uuid's first position in file order (the official orders by it) and its last entry.
  let mut slots: Map<&str, (usize, usize)> = map(entries.len());
  for (i, e) in entries.iter().enumerate() {
    slots.entry(e.uuid()).and_modify(|s| s.1 = i).or_insert((i, i));
  }
  // The map's values in insertion order: the first position of each uuid, holding its last entry.
  let mut order: Vec<(usize, usize)> = slots.values().copied().collect();
  order.sort_unstable();
  let values: Vec<usize> = order.iter().map(|&(_, last)| last).collect();
  let mut first_of = vec![usize::MAX; entries.len()];
  for &(first, last) in &order {
    first_of[last] = first;
  }
  // A uuid's canonical entry: the last one with it.
  let by_uuid = |u: &str| slots.get(u).map(|s| s.1);
  // A canonical entry's position is its uuid's first position.
  let pos = |i: usize| first_of[i] as i64;
  // Which entries are the parent of some entry, and of some main-conversation entry.
  let is_main = |e: &Entry<'_>| !e.sidechain && !e.has_team() && e.kind() != "progress" && !(e.kind() == "attachment" && e.attachment.as_ref().and_then(|a| a.kind.as_deref()) == Some("fork_briefing"));
  let mut is_parent = vec![false; entries.len()];
  let mut is_main_parent = vec![false; entries.len()];
  // Each canonical entry's parent entry, looked up once (the walks below follow it).
  let mut parent_of: Vec<Option<usize>> = vec![None; entries.len()];
  for &i in &values {
    if let Some(p) = entries[i].parent().filter(|p| !p.is_empty()).and_then(by_uuid) {
      parent_of[i] = Some(p);
      is_parent[p] = true;
      if is_main(&entries[i]) {
        is_main_parent[p] = true;
      }
    }
  }
  let mut leaves: Vec<usize> = values.iter().copied().filter(|&i| is_main(&entries[i]) && !is_main_parent[i]).collect();
  leaves.sort_by(|&a, &b| pos(b).cmp(&pos(a)));
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
      let main: Vec<usize> = found.iter().copied().filter(|&i| !entries[i].sidechain && !entries[i].has_team() && !entries[i].meta).collect();
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
  (gather_split(entries, &values, &parent_of, &by_uuid, chain), Some(leaf), terminal)
}

/// What the split-message pass needs of an entry's message, from one parse of it.
#[derive(Default)]
struct Facts<'a> {
  /// An assistant message's `id`.
  id: Option<Cow<'a, str>>,
  /// An assistant message's `tool_use` ids.
  uses: Vec<Cow<'a, str>>,
  /// A user message's `tool_result` ids.
  results: Vec<Cow<'a, str>>,
  /// A user message has a `tool_result` block.
  has_result: bool,
}

fn facts_of<'a>(e: &Entry<'a>) -> Facts<'a> {
  let assistant = e.kind() == "assistant";
  let user = e.kind() == "user";
  if !(assistant || user) {
    return Facts::default();
  }
  let want = if assistant { "tool_use" } else { "tool_result" };
  // Most user entries are prompts: no parse unless the text mentions a tool result.
  if user && !mentions(e, want) {
    return Facts::default();
  }
  let mut f = Facts { id: if assistant { message_id(e) } else { None }, ..Facts::default() };
  if assistant && !mentions(e, want) {
    return f;
  }
  let (any, ids) = tool_blocks(e, want);
  if assistant {
    f.uses = ids;
  } else {
    f.has_result = any;
    f.results = ids;
  }
  f
}

/// Puts back the other parts of assistant messages the chain passes through (entries with the
/// same `message.id`) and the tool results answering them (official `qMe`).
fn gather_split<'a>(entries: &[Entry<'a>], values: &[usize], parent_of: &[Option<usize>], by_uuid: &dyn Fn(&str) -> Option<usize>, chain: Vec<usize>) -> Vec<usize> {
  let assistants: Vec<usize> = chain.iter().copied().filter(|&i| entries[i].kind() == "assistant").collect();
  if assistants.is_empty() {
    return chain;
  }
  // Each entry's message id and tool ids, parsed once (only for the entries the pass reads).
  let mut facts: Vec<Facts<'a>> = Vec::new();
  facts.resize_with(entries.len(), Facts::default);
  for &i in values {
    facts[i] = facts_of(&entries[i]);
  }
  let msg_id = |i: usize| -> Option<&str> { facts[i].id.as_deref() };
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
  let mut parts: Map<&str, Vec<usize>> = map(values.len());
  let mut tool_owner: Map<&str, Option<usize>> = map(values.len());
  let mut results: Vec<usize> = Vec::new();
  for &i in values {
    if let Some(id) = msg_id(i) {
      parts.entry(id).or_default().push(i);
      for t in &facts[i].uses {
        let v = match tool_owner.get(t.as_ref()).copied() {
          None => Some(i),
          Some(Some(w)) if msg_id(w) == Some(id) => Some(i),
          _ => None,
        };
        tool_owner.insert(t, v);
      }
    } else if entries[i].kind() == "user" && entries[i].parent().map_or(false, |p| !p.is_empty()) && facts[i].has_result {
      results.push(i);
    }
  }
  let same_side = |a: usize, b: usize| entries[a].sidechain == entries[b].sidechain && entries[a].agent_id == entries[b].agent_id;
  // The results answering each entry (by the entry's index: every index here is a uuid's
  // canonical entry), without repeats.
  let mut children: Vec<Vec<usize>> = vec![Vec::new(); entries.len()];
  let add = |children: &mut Vec<Vec<usize>>, parent: usize, child: usize| {
    if !children[parent].contains(&child) {
      children[parent].push(child);
    }
  };
  for &r in &results {
    if let Some(p) = parent_of[r] {
      add(&mut children, p, r);
    }
    if let Some(src) = entries[r].source_tool_assistant.as_deref() {
      if Some(src) != entries[r].parent() {
        if let Some(s) = by_uuid(src) {
          if same_side(r, s) {
            add(&mut children, s, r);
          }
        }
      }
    }
    for t in &facts[r].results {
      if let Some(Some(owner)) = tool_owner.get(t.as_ref()) {
        if same_side(r, *owner) {
          add(&mut children, *owner, r);
        }
      }
    }
  }
  let mut answered: Set<&str> = set(chain.len());
  for &c in &chain {
    answered.extend(facts[c].results.iter().map(|r| r.as_ref()));
  }
  let mut file_order: Vec<usize> = vec![usize::MAX; entries.len()];
  for (n, &i) in values.iter().enumerate() {
    file_order[i] = n;
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
    let group: &[usize] = parts.get(id).map_or(&single[..], Vec::as_slice);
    let in_group = |i: usize| group.contains(&i);
    let mut missing: Vec<usize> = group.iter().copied().filter(|&i| !in_chain[i]).collect();
    let mut direct = Vec::new();
    let mut other = Vec::new();
    let mut seen_child: Set<usize> = set(0);
    for &m in group {
      for &c in &children[m] {
        if in_chain[c] || !seen_child.insert(c) {
          continue;
        }
        if parent_of[c].map_or(false, in_group) {
          direct.push(c);
        } else {
          other.push(c);
        }
      }
    }
    if !other.is_empty() {
      let mut have: Set<&str> = answered.clone();
      for &d in &direct {
        have.extend(facts[d].results.iter().map(|r| r.as_ref()));
      }
      other.sort_by_key(|&o| file_order[o]);
      for o in other {
        let ids = &facts[o].results;
        let wanted = ids.iter().any(|t| !have.contains(t.as_ref()) && tool_owner.get(t.as_ref()).copied().flatten().map_or(false, in_group));
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
    _ => return e.message.map_or(false, |m| super::scan::has(m.get(), word)),
  };
  e.message.map_or(false, |m| finder.find(m.get().as_bytes()).is_some())
}

/// Marks the slash-command records and their output that follow a local-command caveat
/// (official `ZMe`).
pub fn mark_local_commands(entries: &mut [Entry<'_>], list: &[usize]) {
  let class = |e: &Entry<'_>| -> Option<&'static str> {
    if e.prompt_source.is_some() {
      return None;
    }
    let t = last_text(e)?;
    [("<command-name>", "record"), ("<local-command-stdout>", "output"), ("<local-command-stderr>", "output"), ("<local-command-caveat>", "caveat")]
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
