-- formwell_json: a small, strict JSON (RFC 8259) decoder and encoder for the LuaJIT binding and its
-- tests.
--
--   local json = require("formwell_json")
--   local value, spans = json.decode(text)
--   local text = json.encode(value)
--
-- Objects become Lua tables keyed by string, arrays Lua arrays (1-based), JSON null the sentinel
-- `json.null`, numbers Lua numbers. `spans[t]` is {first, last}, the byte range of the object or
-- array t in `text`, so a caller can hand an embedded document on as the exact text it was written
-- as (the conformance runner passes each vector's "spec" to fw_form_load_spec that way).
-- Refused, with "line L, column C: reason": trailing commas, comments, leading zeros, NaN,
-- unescaped control characters, bad escapes, unpaired surrogate escapes, invalid UTF-8, and
-- anything after the document. Duplicate keys are refused too (the vectors never need them).
--
-- json.encode writes the reverse mapping, compactly and with object keys sorted (byte order): a
-- table whose keys are exactly 1..n (n > 0) is an array, any other table an object (so {} is {};
-- json.empty_array is []), json.null is null. Refused (a Lua error): keys that are not strings in
-- an object, NaN and infinities, strings that are not UTF-8, functions and other values, cycles.

local byte, sub, find, char = string.byte, string.sub, string.find, string.char
local tonumber, setmetatable = tonumber, setmetatable

local json = {}

json.null = setmetatable({}, { __tostring = function() return "null" end })

local ESCAPES = { [34] = '"', [92] = "\\", [47] = "/", [98] = "\b", [102] = "\f", [110] = "\n", [114] = "\r", [116] = "\t" }

local function utf8_char(code)
  if code < 0x80 then return char(code) end
  if code < 0x800 then return char(0xC0 + math.floor(code / 0x40), 0x80 + code % 0x40) end
  if code < 0x10000 then
    return char(0xE0 + math.floor(code / 0x1000), 0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
  end
  return char(0xF0 + math.floor(code / 0x40000), 0x80 + math.floor(code / 0x1000) % 0x40,
    0x80 + math.floor(code / 0x40) % 0x40, 0x80 + code % 0x40)
end

-- True when s is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF).
local function valid_utf8(s)
  local i, n = 1, #s
  while i <= n do
    local c = byte(s, i)
    if c < 0x80 then
      i = i + 1
    else
      local need, low, high
      if c >= 0xC2 and c <= 0xDF then need, low, high = 1, 0x80, 0xBF
      elseif c == 0xE0 then need, low, high = 2, 0xA0, 0xBF
      elseif c == 0xED then need, low, high = 2, 0x80, 0x9F
      elseif c >= 0xE1 and c <= 0xEF then need, low, high = 2, 0x80, 0xBF
      elseif c == 0xF0 then need, low, high = 3, 0x90, 0xBF
      elseif c >= 0xF1 and c <= 0xF3 then need, low, high = 3, 0x80, 0xBF
      elseif c == 0xF4 then need, low, high = 3, 0x80, 0x8F
      else return false end
      local c1 = byte(s, i + 1)
      if not c1 or c1 < low or c1 > high then return false end
      for k = 2, need do
        local ck = byte(s, i + k)
        if not ck or ck < 0x80 or ck > 0xBF then return false end
      end
      i = i + need + 1
    end
  end
  return true
end
json.valid_utf8 = valid_utf8

function json.decode(text)
  if type(text) ~= "string" then error("formwell_json.decode: expected a string, got " .. type(text), 2) end
  local pos, spans = 1, {}

  local function fail(reason, at)
    at = at or pos
    local line, column, start = 1, 1, 1
    while true do
      local nl = find(text, "\n", start, true)
      if not nl or nl >= at then break end
      line, start = line + 1, nl + 1
    end
    column = at - start + 1
    error(("JSON: line %d, column %d: %s"):format(line, column, reason), 0)
  end

  local function skip()
    pos = find(text, "[^ \t\r\n]", pos) or #text + 1
  end

  local value -- forward declaration

  local function hex4(at)
    local h = sub(text, at, at + 3)
    if not find(h, "^%x%x%x%x$") then fail("bad \\u escape", at) end
    return tonumber(h, 16)
  end

  local function string_value()
    local parts, start = {}, pos + 1
    local i = start
    while true do
      local j = find(text, '["\\%c]', i)
      if not j then fail("unterminated string") end
      local c = byte(text, j)
      if c == 34 then
        parts[#parts + 1] = sub(text, i, j - 1)
        pos = j + 1
        return table.concat(parts)
      elseif c == 92 then
        parts[#parts + 1] = sub(text, i, j - 1)
        local e = byte(text, j + 1)
        if e == 117 then
          local code = hex4(j + 2)
          i = j + 6
          if code >= 0xD800 and code <= 0xDBFF then
            if sub(text, i, i + 1) ~= "\\u" then fail("unpaired surrogate escape", j) end
            local low = hex4(i + 2)
            if low < 0xDC00 or low > 0xDFFF then fail("unpaired surrogate escape", j) end
            code = 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
            i = i + 6
          elseif code >= 0xDC00 and code <= 0xDFFF then
            fail("unpaired surrogate escape", j)
          end
          parts[#parts + 1] = utf8_char(code)
        elseif e and ESCAPES[e] then
          parts[#parts + 1] = ESCAPES[e]
          i = j + 2
        else
          fail("bad escape", j)
        end
      else
        fail("control character in a string", j)
      end
    end
  end

  local function number_value()
    local s, e = find(text, "^-?0[%d]", pos)
    if s then fail("leading zero") end
    s, e = find(text, "^-?%d+%.?%d*[eE]?[-+]?%d*", pos)
    local literal = s and sub(text, s, e)
    if not literal or not (find(literal, "^-?%d+$") or find(literal, "^-?%d+%.%d+$")
        or find(literal, "^-?%d+%.%d+[eE][-+]?%d+$") or find(literal, "^-?%d+[eE][-+]?%d+$")) then
      fail("bad number")
    end
    pos = e + 1
    return tonumber(literal)
  end

  local function container(open)
    local first = pos
    local result, close = {}, open == 91 and 93 or 125
    pos = pos + 1
    skip()
    if byte(text, pos) == close then
      pos = pos + 1
      spans[result] = { first, pos - 1 }
      return result
    end
    local n = 0
    while true do
      if open == 91 then
        n = n + 1
        result[n] = value()
      else
        if byte(text, pos) ~= 34 then fail("expected a key") end
        local key = string_value()
        if result[key] ~= nil then fail("duplicate key " .. key) end
        skip()
        if byte(text, pos) ~= 58 then fail("expected ':'") end
        pos = pos + 1
        result[key] = value()
      end
      skip()
      local c = byte(text, pos)
      if c == close then
        pos = pos + 1
        spans[result] = { first, pos - 1 }
        return result
      elseif c ~= 44 then
        fail(c and "expected ',' or a closing bracket" or "unexpected end of input")
      end
      pos = pos + 1
      skip()
    end
  end

  value = function()
    skip()
    local c = byte(text, pos)
    if c == 123 or c == 91 then return container(c) end
    if c == 34 then return string_value() end
    if c == 45 or (c and c >= 48 and c <= 57) then return number_value() end
    if sub(text, pos, pos + 3) == "true" then pos = pos + 4 return true end
    if sub(text, pos, pos + 4) == "false" then pos = pos + 5 return false end
    if sub(text, pos, pos + 3) == "null" then pos = pos + 4 return json.null end
    fail(c and "unexpected character" or "unexpected end of input")
  end

  if byte(text, 1) == 0xEF then fail("byte order mark", 1) end
  if not valid_utf8(text) then fail("invalid UTF-8", 1) end
  local result = value()
  skip()
  if pos <= #text then fail("text after the document") end
  return result, spans
end

-- ---- encoding ------------------------------------------------------------------------------------

json.empty_array = setmetatable({}, { __tostring = function() return "[]" end })

local function encode_string(s)
  if not valid_utf8(s) then error("formwell_json.encode: a string is not valid UTF-8", 0) end
  return '"' .. s:gsub('[%c"\\]', function(c)
    if c == '"' then return '\\"' end
    if c == "\\" then return "\\\\" end
    if c == "\n" then return "\\n" end
    if c == "\t" then return "\\t" end
    if c == "\r" then return "\\r" end
    return ("\\u%04x"):format(byte(c))
  end) .. '"'
end

local function encode_value(value, parts, seen)
  local kind = type(value)
  if kind == "string" then
    parts[#parts + 1] = encode_string(value)
  elseif kind == "number" then
    if value ~= value or value == math.huge or value == -math.huge then
      error("formwell_json.encode: NaN and infinities have no JSON text", 0)
    end
    if value == math.floor(value) and math.abs(value) < 2^53 then
      parts[#parts + 1] = ("%d"):format(value)
    else
      local text = ("%.15g"):format(value)  -- the shortest of 15, 16, 17 digits that reads back
      if tonumber(text) ~= value then text = ("%.16g"):format(value) end
      if tonumber(text) ~= value then text = ("%.17g"):format(value) end
      parts[#parts + 1] = text
    end
  elseif kind == "boolean" then
    parts[#parts + 1] = value and "true" or "false"
  elseif value == json.null then
    parts[#parts + 1] = "null"
  elseif value == json.empty_array then
    parts[#parts + 1] = "[]"
  elseif kind == "table" then
    if seen[value] then error("formwell_json.encode: a table contains itself", 0) end
    seen[value] = true
    local n, count = #value, 0
    for _ in pairs(value) do count = count + 1 end
    if n > 0 and count == n then
      parts[#parts + 1] = "["
      for i = 1, n do
        if i > 1 then parts[#parts + 1] = "," end
        encode_value(value[i], parts, seen)
      end
      parts[#parts + 1] = "]"
    else
      local keys = {}
      for key in pairs(value) do
        if type(key) ~= "string" then
          error("formwell_json.encode: an object key must be a string, not " .. type(key), 0)
        end
        keys[#keys + 1] = key
      end
      table.sort(keys)
      parts[#parts + 1] = "{"
      for i, key in ipairs(keys) do
        if i > 1 then parts[#parts + 1] = "," end
        parts[#parts + 1] = encode_string(key)
        parts[#parts + 1] = ":"
        encode_value(value[key], parts, seen)
      end
      parts[#parts + 1] = "}"
    end
    seen[value] = nil
  else
    error("formwell_json.encode: a " .. kind .. " has no JSON text", 0)
  end
end

function json.encode(value)
  local parts = {}
  encode_value(value, parts, {})
  return table.concat(parts)
end

return json
