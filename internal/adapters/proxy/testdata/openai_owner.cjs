// One whole chat through daybook's memory proxy with the official OpenAI
// Node client, with the base URL and API key given: the proxy's token may
// be either. Prints one JSON line: the answer, or the error's status.
// Usage: OPENAI_MODULE=.../node_modules/openai node openai_owner.cjs BASE_URL API_KEY
const OpenAI = require(process.env.OPENAI_MODULE);
const client = new OpenAI({ baseURL: process.argv[2], apiKey: process.argv[3], maxRetries: 0 });

(async () => {
  try {
    const r = await client.chat.completions.create({
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'What do you know about me?' }],
    });
    console.log(JSON.stringify({ answer: r.choices[0].message.content }));
  } catch (e) {
    console.log(JSON.stringify({ status: e.status || 0, message: e.message }));
  }
})();
