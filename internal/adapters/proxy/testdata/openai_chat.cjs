// Chats through daybook's memory proxy with the official OpenAI Node client
// (npm openai, installed by .ci/install-openai): a whole answer, a streamed
// one, and a model that is not pulled. Prints one JSON line of what it got.
// Usage: OPENAI_MODULE=.../node_modules/openai node openai_chat.cjs BASE_URL
const OpenAI = require(process.env.OPENAI_MODULE);
const client = new OpenAI({ baseURL: process.argv[2] + '/v1', apiKey: 'ollama', maxRetries: 0 });

(async () => {
  const whole = await client.chat.completions.create({
    model: 'llama3.2',
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Where did I park the bike?' },
    ],
  });
  const stream = await client.chat.completions.create({
    model: 'llama3.2',
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      { role: 'user', content: 'Where did I park the bike?' },
      { role: 'assistant', content: whole.choices[0].message.content },
      { role: 'user', content: 'And the car?' },
    ],
  });
  let text = '', finish = null, usage = null, chunks = 0;
  for await (const c of stream) {
    chunks++;
    if (c.choices.length > 0) {
      text += c.choices[0].delta.content || '';
      finish = c.choices[0].finish_reason || finish;
    }
    if (c.usage) usage = c.usage;
  }
  let err = null;
  try {
    await client.chat.completions.create({ model: 'mistral', messages: [{ role: 'user', content: 'hi' }] });
  } catch (e) {
    err = { status: e.status, message: e.message };
  }
  console.log(JSON.stringify({
    whole: whole.choices[0].message.content, wholeFinish: whole.choices[0].finish_reason,
    stream: text, finish, chunks, usage, err,
  }));
})().catch((e) => { console.error(e); process.exit(1); });
